"""Suite-wide settings: Qt offscreen, and no test touches the user's real cache or config folder."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Engines started without an explicit cache folder (and their subprocesses) use a throwaway one.
os.environ.setdefault("DUBSTUDIO_CACHE_DIR", tempfile.mkdtemp(prefix="dubstudio-test-cache-"))
# Whisper folders are assembled from their packages once into a folder every test session shares
# (220 MB; each process still checks their hashes before trusting them), not the user's own.
os.environ.setdefault("DUBSTUDIO_MODELS_DIR", os.path.join(tempfile.gettempdir(), "dubstudio-test-models"))
# The translator's last endpoint and keys go to a throwaway config folder: a test's local chat
# server (http://127.0.0.1:PORT, model "scripted") was remembered in the user's own, and offered
# by the next real `dubstudio translate`.
os.environ.setdefault("DUBSTUDIO_CONFIG_DIR", tempfile.mkdtemp(prefix="dubstudio-test-config-"))
