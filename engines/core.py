"""The engine contract in one import: what a game package and every driver of a game use.

docs/engine-contract.md describes it; the parts live in small modules: `engines.contract`
(the values exchanged with an engine), `engines.rules` (the base a game implements, with a minimal
example), `engines.game` (`Game` and `State`: the common layer over a game's rules),
`engines.canonical` (the digest's encoding), `engines.chance` (chance values from bytes) and
`engines.descriptor` (`Descriptor`: the one entry a game package declares, with its `Capabilities`).
"""

from __future__ import annotations

from engines.canonical import canonical_bytes
from engines.chance import deal_from_bytes, outcome_from_bytes, remaining_cards, uniform
from engines.contract import (
    COMMON_ACTIONS,
    HIDDEN,
    Awaiting,
    AwaitingKind,
    Chance,
    ChanceKind,
    Hidden,
    IllegalAction,
    Option,
    Result,
    UnknownGame,
)
from engines.descriptor import CHANCE_KINDS, SECRET_KINDS, Capabilities, Descriptor, Mix
from engines.game import Game, State, check_outcome, interrupts_step
from engines.rules import Rules

__all__ = [
    "CHANCE_KINDS",
    "COMMON_ACTIONS",
    "HIDDEN",
    "SECRET_KINDS",
    "Awaiting",
    "AwaitingKind",
    "Capabilities",
    "Chance",
    "ChanceKind",
    "Descriptor",
    "Game",
    "Hidden",
    "IllegalAction",
    "Mix",
    "Option",
    "Result",
    "Rules",
    "State",
    "UnknownGame",
    "canonical_bytes",
    "check_outcome",
    "deal_from_bytes",
    "interrupts_step",
    "outcome_from_bytes",
    "remaining_cards",
    "uniform",
]
