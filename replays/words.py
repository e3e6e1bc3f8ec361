"""Fingerprint words: a key's fingerprint as a few common English words that two people can compare
aloud, as Signal's safety numbers or SSH's visual host keys let them. Two hosts on the LAN that call
themselves by one name are told apart by their words; an impostor would need a key whose fingerprint
starts with the same 48 bits (some 2^47 key pairs to try) to get the same six words.

    fingerprint_words("3f2a-91c0-77de-0b14")   # -> "crow camel lobster poppy iron sparrow"

Each of the first six bytes of the fingerprint (the first 8 bytes of SHA-256 of the raw Ed25519 public
key, replays.crypto.fingerprint) picks one word of WORDS by its value. WORDS is fixed: 256 distinct
words of 3 to 8 letters, no two starting with the same three letters, in alphabetical order. Changing
it changes every host's words, so it never changes (docs/protocol.md, "Discovery").
"""

from __future__ import annotations

import re

__all__ = ["WORDS", "COUNT", "fingerprint_words"]

COUNT = 6
_FINGERPRINT = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}")

_LIST = """
    acorn amber anchor anvil apple arch arrow aspen atlas axle badge bagel ball bamboo banjo barn basil
    bat beach bee bell bench berry birch bison blade blossom boat bolt bone boot bottle bowl brick brook
    bubble bucket buffalo button cabin cactus cake camel candle cape carpet castle cat cave cedar chair
    cherry cliff clock cobra cocoa coin comet copper coral cotton crab creek crow cup daisy deer delta
    desert dolphin dove dragon drum duck dune eagle echo eel elk ember emerald engine falcon fan feather
    fence fern fig flag flint flute fog forest fossil fox frog garden gecko ginger glacier globe goat
    gold goose grape guitar gull hammer harbor hawk hazel helmet heron hill hippo honey hook horse iris
    iron island ivory ivy jacket jade jaguar jar jewel kayak kettle key kite koala ladder lake lamp
    lantern lark lava lemon leopard lily lime lion llama lobster lock lotus lynx magnet mango maple
    marble meadow melon mint mirror mole moon moss moth mule nail needle nest newt oak oar ocean olive
    onion orange orbit otter owl oyster paddle palm panda parrot pasta peach pebble pelican pencil
    pepper piano pillow pine planet plum pony poppy potato pumpkin quail rabbit radish rain raven reef
    rhino rice ridge river robin rocket rose ruby saddle sail salmon sand scarf seal shark shell shield
    silver sled snail snow sparrow spider spoon squid star stone sugar swan sword table tiger toast
    tomato topaz torch tower tulip tuna turtle umbrella valley violin viper wagon walnut wasp whale
    wheat willow wolf wombat yak zebra zinc
"""
WORDS = tuple(_LIST.split())


def fingerprint_words(fingerprint: str, count: int = COUNT) -> str:
    """The first `count` (1..8) bytes of a fingerprint `xxxx-xxxx-xxxx-xxxx` as words, space-separated."""
    fingerprint = fingerprint.lower()
    if not _FINGERPRINT.fullmatch(fingerprint) or not 1 <= count <= 8:
        raise ValueError(f"not a key fingerprint: {fingerprint!r}")
    raw = bytes.fromhex(fingerprint.replace("-", ""))
    return " ".join(WORDS[b] for b in raw[:count])
