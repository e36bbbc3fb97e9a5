# The `webrtcvad` module comes from the webrtcvad-wheels distribution (pyproject.toml), which
# reads its version from that distribution's metadata. pyinstaller-hooks-contrib's own hook
# copies the metadata of a distribution named `webrtcvad` and fails the build without it; this
# hook (found first, through the spec's hookspath) copies the right one.
from PyInstaller.utils.hooks import copy_metadata

datas = copy_metadata("webrtcvad-wheels")
