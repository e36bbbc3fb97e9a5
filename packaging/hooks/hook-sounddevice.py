"""PyInstaller hook: bundle the PortAudio library that sounddevice loads with ctypes.

Windows and macOS wheels of sounddevice carry PortAudio in ``_sounddevice_data``; on Linux it
is the system's ``libportaudio.so.2``, which PyInstaller cannot see through ctypes. Without
it the frozen studio still runs but reports "no audio output device".
"""

import ctypes.util
from pathlib import Path

from PyInstaller.utils.hooks import get_module_file_attribute, logger

binaries = []

_bundled = Path(get_module_file_attribute("sounddevice")).parent / "_sounddevice_data" / "portaudio-binaries"
if _bundled.is_dir():
    binaries += [(str(lib), "_sounddevice_data/portaudio-binaries") for lib in _bundled.glob("libportaudio*")]
else:
    _name = ctypes.util.find_library("portaudio")
    if _name:
        from PyInstaller.depend.utils import _resolveCtypesImports

        binaries += [(path, ".") for _lib, path in _resolveCtypesImports([_name])]

if not binaries:
    logger.warning("PortAudio not found: the frozen studio will play nothing (install libportaudio2)")
