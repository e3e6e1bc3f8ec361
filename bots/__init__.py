"""Drivers that let bots play games locally (self-play, the demo, tests)."""
