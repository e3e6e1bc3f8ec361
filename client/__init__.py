"""The front ends: the `netplay` command (cli.py, the composition root) and the Pygame app."""
