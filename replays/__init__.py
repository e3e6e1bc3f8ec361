"""The session transcript: canonical frame codec, signatures, hash chains and commitments (pure
functions), the Ledger that validates frames for live peers and the audit alike, replay files,
the audit, stepping and the local recorder. See docs/protocol.md and docs/replay-format.md."""
