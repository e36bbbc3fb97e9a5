"""Suite-wide settings: Qt offscreen, and no test touches the user's real cache folder."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
