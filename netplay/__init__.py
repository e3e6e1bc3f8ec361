"""Networking below the game session: identity and keys, encrypted transport, LAN discovery."""
