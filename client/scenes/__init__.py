"""The scenes of the app: lobby, table, replay viewer."""
