"""Suite-wide settings: Qt offscreen, and no test touches the user's real cache folder."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Engines started without an explicit cache folder (and their subprocesses) use a throwaway one.
os.environ.setdefault("DUBSTUDIO_CACHE_DIR", tempfile.mkdtemp(prefix="dubstudio-test-cache-"))
