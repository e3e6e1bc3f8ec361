"""Test-wide settings.

The app shows a scene's exception on screen instead of closing (client/app.py, `App.failed`); in
the tests a scene's exception must fail the test that caused it, so it is raised again here unless a
test asks for the on-screen error (tests/test_client_errors.py unsets the variable).
"""

import os

os.environ.setdefault("NETPLAY_SCENE_ERRORS", "raise")
