"""Files, safely: the one atomic writer of the whole tree, folders kept inside a root, and
reading only regular files.

Everything DubStudio writes (project.json, takes, exports, cached voices, bench reports, plot
images) goes through :func:`atomic_write`: the bytes go to a temp file in the same, verified
folder, are flushed and fsynced, and the temp file is renamed over the target, so a crash or a
full disk leaves either the old file or the new one, never half of either.

The writer only ever replaces *regular files*. A symlink, a folder, a device node or a pipe at
the target is refused with :attr:`ErrorCode.NOT_REGULAR_FILE`: renaming over ``/dev/null``
(or a copy of it made with ``mknod``) would destroy it, and renaming over a symlink silently
turns a link into a file. A path the user names explicitly (``say --out``, ``bench --json``) may
be a pipe or a character device (``/dev/stdout``, a FIFO another program reads): with
``stream_special=True`` the bytes are streamed into it instead, and nothing is ever renamed
over it.

With ``inside=ROOT`` the folder written into must resolve (through symlinks at any depth) to
ROOT or a folder under it, and missing folders are created one level at a time, each checked
before the next is made, so a symlinked ``exports/`` cannot send a write, or even an ``mkdir``,
outside a project.

Reads of files people hand us (scripts, transcripts, clips, takes, videos, token files) go
through :func:`open_regular_file` (or :func:`read_regular_file`, :func:`read_audio`), which
refuses a pipe or a device at once instead of waiting on it for ever, and :func:`decode_text`,
which decodes what text editors and subtitle tools write. A target with other hard links is
never written: it may be a file elsewhere that shares its contents.

This module lives in ``engine/`` because the engine (voice cache, reports)
and the studio (projects) both need it and the engine may not import the studio; the project
layer wraps its errors in its own error types (``app.project.fsutil``).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypedDict, Unpack, cast

from engine.core.codes import ErrorCode
from engine.core.languages import is_han

if TYPE_CHECKING:
    import numpy as np

# Read once: os.umask can only be queried by setting it, which is not thread-safe later on.
_UMASK = os.umask(0)
os.umask(_UMASK)
NEW_FILE_MODE = 0o666 & ~_UMASK  # what open() would give a new file; mkstemp's 0600 is too tight
_NO_SPACE = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})


class FileError(OSError):
    """A file operation refused or failed (a failed write leaves the target as it was).

    ``str()`` is ``CODE: message``.

    An OSError, so code that already handles failed file operations handles these too.
    """

    def __init__(self, code: ErrorCode, message: str, path: Path | None = None) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.path = path


def _describe_os_error(error: OSError) -> str:
    return error.strerror or str(error)


def code_of_write_error(error: OSError) -> ErrorCode:
    """DISK_FULL for no space or quota left, SAVE_FAILED for any other failed write."""
    return ErrorCode.DISK_FULL if error.errno in _NO_SPACE else ErrorCode.SAVE_FAILED


def _kind_of(mode: int) -> str:
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def ensure_dir(directory: str | os.PathLike[str], inside: str | os.PathLike[str] | None = None) -> Path:
    """Make ``directory`` if needed and return its resolved path.

    With ``inside``, ``directory`` must be ``inside`` or under it, and every level that
    already exists must resolve inside it (a symlink pointing out is refused with
    PATH_ESCAPE) before the next level is created, so nothing is created outside.
    """
    target = Path(directory).absolute()
    try:
        if inside is None:
            target.mkdir(parents=True, exist_ok=True)
            return target.resolve()
        root = Path(inside).absolute()
        real_root = root.resolve()
        try:
            parts = target.relative_to(root).parts
        except ValueError:
            try:  # named through the root's real path (the root itself is a symlink)
                parts = target.relative_to(real_root).parts
            except ValueError:
                raise FileError(ErrorCode.PATH_ESCAPE, f"{target} is not inside {root}", target) from None
        current = real_root
        real_root.mkdir(parents=True, exist_ok=True)
        for part in parts:
            step = current / part
            if not os.path.lexists(step):
                step.mkdir()  # ``current`` is verified, so this creates inside the root
            real = step.resolve()
            if real != real_root and real_root not in real.parents:
                raise FileError(
                    ErrorCode.PATH_ESCAPE, f"{step} leads outside {real_root} (to {real}); refusing to use it", step
                )
            if not real.is_dir():
                raise FileError(ErrorCode.SAVE_FAILED, f"{step} is not a folder", step)
            current = real
        return current
    except FileError:
        raise
    except FileExistsError:  # raced with another process making the same folder: look again
        return ensure_dir(directory, inside)
    except OSError as error:
        reason = _describe_os_error(error)
        raise FileError(code_of_write_error(error), f"cannot make folder {target}: {reason}", target) from error


def check_target(path: Path, *, stream_special: bool = False) -> os.stat_result | None:
    """The target's ``lstat`` when it exists, ``None`` when it does not; refuses non-regular files.

    With ``stream_special`` a pipe or character device (reached directly or through symlinks)
    is accepted and its ``stat`` returned, for :func:`atomic_write` to stream into.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:  # e.g. a file where a folder should be (ENOTDIR)
        reason = _describe_os_error(error)
        raise FileError(code_of_write_error(error), f"cannot inspect {path}: {reason}", path) from error
    if stat.S_ISREG(info.st_mode):
        if info.st_nlink > 1:
            # Replacing our name would leave the other one as it is, but a target shared with a
            # file elsewhere is not one we made: say so rather than quietly splitting the two.
            raise FileError(
                ErrorCode.NOT_REGULAR_FILE,
                f"{path} is hard-linked to {info.st_nlink - 1} other name(s), perhaps outside this folder; "
                "refusing to write it (remove it, or name another file)",
                path,
            )
        return info
    if stream_special:
        try:
            followed = os.stat(path)
        except OSError:
            followed = None
        if followed is not None and (stat.S_ISFIFO(followed.st_mode) or stat.S_ISCHR(followed.st_mode)):
            return followed
    raise FileError(
        ErrorCode.NOT_REGULAR_FILE,
        f"{path} is {_kind_of(info.st_mode)}; refusing to replace it (name a regular file)",
        path,
    )


def _stream(path: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write into a pipe or device: formats like WAV seek back to fix headers, so buffer first."""
    buffer = io.BytesIO()
    write(buffer)
    with open(path, "wb", buffering=0) as device:  # follows links: the user named this path
        device.write(buffer.getvalue())


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; Windows cannot open folders.
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class WriteOptions(TypedDict, total=False):
    """:func:`atomic_write`'s options, which the writers built on it pass on."""

    inside: str | os.PathLike[str] | None
    stream_special: bool


def atomic_write(
    path: str | os.PathLike[str],
    write: Callable[[IO[bytes]], object],
    *,
    inside: str | os.PathLike[str] | None = None,
    stream_special: bool = False,
) -> Path:
    """Write ``path`` through ``write(handle)`` into a temp file, then rename it over ``path``.

    Returns the path written (its folder resolved). New files get the usual permissions
    (``0666`` less the umask); a replaced file keeps its own. On any failure (of the file
    system or of ``write``) the temp file is removed, the target is untouched and
    :class:`FileError` is raised with the cause chained; KeyboardInterrupt and friends clean
    up the same way and then propagate unchanged.
    """
    requested = Path(path).absolute()
    directory = ensure_dir(requested.parent, inside)
    target = directory / requested.name
    existing = check_target(target, stream_special=stream_special)
    temp: Path | None = None
    try:
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            _stream(target, write)
            return target
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        temp = Path(temp_name)
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), NEW_FILE_MODE if existing is None else stat.S_IMODE(existing.st_mode))
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        check_target(target)  # something may have appeared there while we wrote
        os.replace(temp, target)
        _fsync_dir(directory)
    except BaseException as error:
        if temp is not None:
            temp.unlink(missing_ok=True)
        if isinstance(error, FileError) or not isinstance(error, Exception):
            raise  # KeyboardInterrupt and friends: cleaned up, then propagate unchanged
        code = code_of_write_error(error) if isinstance(error, OSError) else ErrorCode.SAVE_FAILED
        reason = _describe_os_error(error) if isinstance(error, OSError) else str(error) or type(error).__name__
        raise FileError(code, f"cannot write {target}: {reason}", target) from error
    return target


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, **options: Unpack[WriteOptions]) -> Path:
    """Atomically replace ``path`` with ``data`` (options as for :func:`atomic_write`)."""
    return atomic_write(path, lambda handle: handle.write(data), **options)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8",
                      **options: Unpack[WriteOptions]) -> Path:
    """Atomically replace ``path`` with ``text``, newlines written as given."""
    return atomic_write_bytes(path, text.encode(encoding), **options)


class _RememberingWriter:
    """A file wrapper for libsndfile's callbacks: it keeps an OSError instead of raising it.

    soundfile calls ``write``/``seek`` from C callbacks, where an exception is printed as a
    traceback and then lost; this wrapper reports a failed call instead (libsndfile then fails
    cleanly) and keeps the real error (e.g. "no space left on device") for the caller to raise.
    A buffered handle may hit the error on ``seek`` (which flushes), so every call is guarded.
    """

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle
        self.error: OSError | None = None

    def _guard(self, call: Callable[[], int], failed: int) -> int:
        if self.error is not None:
            return failed
        try:
            return call()
        except OSError as error:
            self.error = error
            return failed

    def write(self, data: bytes) -> int:
        return self._guard(lambda: self._handle.write(data), 0)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._guard(lambda: self._handle.seek(offset, whence), -1)

    def tell(self) -> int:
        return self._guard(self._handle.tell, -1)

    def read(self, size: int = -1) -> bytes:
        return self._handle.read(size)


def atomic_write_wav(
    path: str | os.PathLike[str], pcm: np.ndarray, sample_rate: int, subtype: str = "PCM_16",
    **options: Unpack[WriteOptions],
) -> Path:
    """Atomically write mono or multi-channel float audio (clipped to ±1) as a WAV file."""
    channels = 1 if pcm.ndim == 1 else pcm.shape[1]
    return atomic_write_wav_blocks(path, [pcm], sample_rate, channels, subtype, **options)


def atomic_write_wav_blocks(
    path: str | os.PathLike[str], blocks: Iterable[np.ndarray], sample_rate: int, channels: int,
    subtype: str = "PCM_16", **options: Unpack[WriteOptions],
) -> Path:
    """Atomically write float audio that arrives block by block ((n,) or (n, channels) each,
    clipped to ±1) as a WAV file: a programme hours long is never held whole."""
    import numpy as np
    import soundfile as sf

    def write(handle: IO[bytes]) -> None:
        guarded = _RememberingWriter(handle)
        try:
            with sf.SoundFile(guarded, "w", sample_rate, channels, subtype, format="WAV") as wav:
                for block in blocks:
                    wav.write(np.clip(np.asarray(block, dtype=np.float32), -1.0, 1.0))
        except Exception:  # a short write surfaces as LibsndfileError or a bare AssertionError
            if guarded.error is not None:
                raise guarded.error from None
            raise
        if guarded.error is not None:
            raise guarded.error

    return atomic_write(path, write, **options)


# --- reading ----------------------------------------------------------------------------------

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16: its BOM starts with UTF-16 LE's
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
CP1252_PREFERENCE = 0.1  # chaos margin within which cp1252 beats the detector's first pick
CP1252_COMMONNESS = 0.5  # and the least share of its accented letters that must sit in words


def open_regular_file(path: str | os.PathLike[str]) -> IO[bytes]:
    """A binary handle on a regular file (symlinks followed); anything else is refused with a code.

    The one way the tree opens a file people hand us (scripts, clips, takes, the guide track,
    videos, token files): opened without blocking, so a named pipe is refused at once instead
    of waiting for a writer that may never come, then checked with ``fstat`` on the open
    descriptor (no gap between the check and the use); a folder or device is refused the
    same way (NOT_REGULAR_FILE). Decoders (libsndfile, FFmpeg) take the handle itself.
    """
    target = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        raise FileError(ErrorCode.READ_FAILED, f"cannot read {target}: it does not exist", target) from None
    except OSError as error:
        if error.errno == errno.EISDIR:
            raise FileError(ErrorCode.NOT_REGULAR_FILE, f"{target} is a folder, not a file", target) from None
        raise FileError(ErrorCode.READ_FAILED, f"cannot read {target}: {_describe_os_error(error)}", target) from error
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileError(
                ErrorCode.NOT_REGULAR_FILE, f"{target} is {_kind_of(mode)}; only regular files can be read", target
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file, opened by :func:`open_regular_file`."""
    with open_regular_file(path) as handle:
        try:
            return handle.read()
        except OSError as error:
            raise FileError(ErrorCode.READ_FAILED, f"cannot read {path}: {_describe_os_error(error)}", Path(path)) from error


def read_audio(path: str | os.PathLike[str], **options: Any) -> tuple[np.ndarray, int]:
    """``soundfile.read`` of a regular file opened by :func:`open_regular_file` (options as
    soundfile's); a pipe or folder raises FileError, undecodable audio soundfile's own errors."""
    import soundfile as sf

    with open_regular_file(path) as handle:
        return cast("tuple[np.ndarray, int]", sf.read(handle, **options))  # soundfile is untyped


def audio_info(path: str | os.PathLike[str]) -> Any:
    """``soundfile.info`` (rate, frames, channels...) of a regular file, as :func:`read_audio`."""
    import soundfile as sf

    with open_regular_file(path) as handle:
        return sf.info(handle)


def decode_text(data: bytes) -> str:
    """Decode a text file's bytes: a BOM's encoding, else strict UTF-8, else charset-normalizer.

    Raises ValueError (UnicodeDecodeError included) when nothing fits, e.g. for binary data.
    A leading BOM is dropped; line ends are left as they are.
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data.decode(codec)
    if (wide := _utf16_without_bom(data)) is not None:
        return wide
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data))
    # Short files give the detector little evidence, and it often ranks cp1250/cp1257 first
    # for French or Spanish text. cp1252 is by far the most common legacy encoding of
    # subtitle and script files, so it wins when it is about as plausible as the first pick.
    # Not when its letters make no words (a Big5 line with no marks read as "§Ú·Q°h³f"): that
    # reading goes to the scoring below with the others.
    for match in matches:
        if match.encoding == "cp1252" and matches and match.chaos <= matches[0].chaos + CP1252_PREFERENCE \
                and _commonness(str(match)) >= CP1252_COMMONNESS:
            return str(match)
    # Chinese subtitle files are often GB18030/GBK or Big5, and on a short one the detector
    # reads Korean or Japanese into the same bytes ("你好。" in GBK came out as "컦줶몪"): every
    # reading, the detector's and the two Chinese ones, is scored by how much of its text is
    # common characters of one script, and the best wins (the detector's order breaks ties).
    readings = [(match.encoding, str(match)) for match in matches]
    for codec in (*_CHINESE_CODECS, *_WESTERN_CODECS):
        with contextlib.suppress(UnicodeDecodeError):
            readings.append((codec, data.decode(codec)))
    if not readings:
        raise ValueError("the file is not text in any encoding we recognise (is it a binary file?)")
    codec, best_text = readings[0]
    best_score = _plausibility(best_text, codec)
    for codec, text in readings[1:]:
        if (score := _plausibility(text, codec)) > best_score:
            best_text, best_score = text, score
    return best_text


def _plausibility(text: str, codec: str) -> tuple[float, bool, float, bool]:
    """A reading's commonness; between equally common ones, whether it is Chinese or Japanese
    written with their full-width punctuation (Korean's is ASCII: "콱봤。" is no Korean); then,
    for a reading from a Chinese codec with no kana or Hangul (Japanese without any kana is
    rare: "低挫" is the EUC-JP reading of "你好" in GB2312), how frequent its characters are in
    Chinese (:func:`_frequency`: a short GBK line with no marks read as Big5 is made of
    rarer ones, 你好 as 斕疑); last, GB18030 before Big5 (a tie left after all that is two
    characters, both common either way: 快跑 or 辦變; mainland files are the commoner)."""
    punctuated = any(char in _CJK_MARKS for char in text)
    hangul = any("\uac00" <= char <= "\ud7a3" for char in text)
    kana = any("\u3041" <= char <= "\u30ff" for char in text)
    chinese = not hangul and not kana and codec in _CHINESE_CODECS
    # Korean or Japanese read by their own codecs, in their own letters, are judged the same way
    # in their language: 안녕하세요 is commoner Korean than its GB18030 reading 救崇窍技夸 is Chinese.
    own_letters = "Korean" if hangul else "Japanese" if kana else ""
    frequency = _frequency(text, "Chinese") if chinese else \
        _frequency(text, own_letters) if own_letters and codec not in _CHINESE_CODECS else -1.0
    return _commonness(text), punctuated and not hangul, frequency, codec == "gb18030"


_CHINESE_CODECS = ("gb18030", "big5")  # GB18030 reads GB2312 and GBK files too
# Western Europe's and Central Europe's (Polish, Czech, Hungarian: Dzień, Děkuji), each read and judged
# beside the detector's picks: on a short file the detector may offer neither.
_WESTERN_CODECS = ("cp1252", "cp1250")
# The marks of a sentence as Chinese and Japanese write them (、。！，：；？（）); not full-width
# digits or ＜＝＞, which a wrong reading makes as readily ("45°" in GBK read as EUC-JP ends "45＜").
_CJK_MARKS = frozenset("\u3001\u3002\uff01\uff08\uff09\uff0c\uff1a\uff1b\uff1f")
SAMPLE_LETTERS = 4000  # the letters of a file a reading's frequency is judged by


def _frequency(text: str, language: str) -> float:
    """How frequent a reading's letters are in ``language`` (Chinese, Korean or Japanese), on
    average: 2 for one of its hundred commonest (charset-normalizer's own tables), 1 for another
    common one (GB2312's first level, judged by the simplified form so that a traditional file's
    這 counts as 这; KS X 1001's Hangul; kana and JIS's first level), 0 for any other."""
    from charset_normalizer.constant import FREQUENCIES

    if language == "Chinese":
        from engine.core.chinese_forms import simplified

        letters = simplified("".join(filter(is_han, text))[:SAMPLE_LETTERS])
        common: Callable[[str], bool] = partial(_code_point_in, codec="gb2312", low=0xB0A1, high=0xD7FE)
    elif language == "Korean":
        letters, common = "".join(char for char in text if "\uac00" <= char <= "\ud7a3")[:SAMPLE_LETTERS], \
            _is_common_hangul
    else:
        def common(char: str) -> bool:
            return "\u3041" <= char <= "\u30ff" or _is_common_han(char)

        letters = "".join(char for char in text if is_han(char) or "\u3041" <= char <= "\u30ff")[:SAMPLE_LETTERS]
    if not letters:
        return 0.0
    commonest = set(FREQUENCIES[language])
    return sum(2.0 if char in commonest else float(common(char)) for char in letters) / len(letters)


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 written without its byte-order mark, which some tools save: every ASCII character
    then has a NUL byte beside it (which side says the byte order), and a file of Chinese alone
    has control bytes no text in an 8-bit encoding holds. None when the bytes are not that, or
    neither byte order reads them as text without control characters."""
    from engine.core.text import control_character

    if len(data) % 2 or control_character(data[:UTF16_SAMPLE_BYTES].decode("latin-1")) is None:
        return None
    nul_first = data[0::2].count(0) > data[1::2].count(0)  # "A" is 00 41 big-endian, 41 00 little
    for codec in ("utf-16-be", "utf-16-le") if nul_first else ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if control_character(text) is None and _commonness(text) >= UTF16_COMMONNESS:
            return text
    return None


UTF16_SAMPLE_BYTES = 4096  # UTF-16 has its NULs or control bytes all through: its start shows them
UTF16_COMMONNESS = 0.8  # a UTF-16 reading of bytes that are not UTF-16 is mostly rare characters


def _code_point_in(char: str, codec: str, low: int, high: int) -> bool:
    try:
        encoded = char.encode(codec)
    except UnicodeEncodeError:
        return False
    return len(encoded) == 2 and low <= int.from_bytes(encoded, "big") <= high


def _east_asian(char: str) -> bool:
    """Han, kana or Hangul: a letter of Chinese, Japanese or Korean."""
    return "\u3041" <= char <= "\u30ff" or is_han(char) or "\uac00" <= char <= "\ud7a3"


def _alone_among_latin(text: str, n: int) -> bool:
    """Whether ``text[n]`` has nothing East Asian (a letter, a full-width mark) on either side, on
    a line that has Latin letters: "Cze滄.", "ぺ va."."""
    neighbours = text[max(0, n - 1):n] + text[n + 1:n + 2]
    line = text[text.rfind("\n", 0, n) + 1:text.find("\n", n) % (len(text) + 1)]
    return not any(_east_asian(other) or ord(other) >= 0x3000 for other in neighbours) \
        and any(char.isascii() and char.isalpha() for char in line)


def _is_common_han(char: str) -> bool:
    """One of the characters Chinese and Japanese text is mostly written in: GB2312's first
    level (its 3,755 common characters), Big5's frequent ones, or JIS X 0208's first level."""
    return (_code_point_in(char, "gb2312", 0xB0A1, 0xD7FE) or _code_point_in(char, "big5", 0xA440, 0xC67E)
            or _code_point_in(char, "shift_jis", 0x889F, 0x9872))


def _is_common_hangul(char: str) -> bool:
    """One of the 2,350 Hangul syllables of KS X 1001 (EUC-KR), the ones Korean text uses."""
    try:
        return len(char.encode("euc_kr")) == 2
    except UnicodeEncodeError:
        return False


def _commonness(text: str) -> float:
    """How plausible a decoding is: the share of its non-ASCII characters that are common ones of
    its main East Asian script (Han, with kana as Japanese writes it; Hangul), or accented letters
    within Western words. A wrong reading of CJK bytes gives rare characters, Hangul and Han mixed
    as no text is written, or runs of accented letters that are no words ("ÄãºÃ")."""
    wide = [n for n, char in enumerate(text) if ord(char) > 0x7F]
    if not wide:
        return 1.0
    # A Western file read two bytes at a time as Chinese has each of its accented letters become one
    # East Asian character alone inside Latin words ("Père Noël" as "P鑢e No雔", "Cześć." as "Cze滄.");
    # Chinese writes its characters in runs, or with its own marks beside them.
    east_asian = [n for n in wide if _east_asian(text[n])]
    read_apart = bool(east_asian) and all(_alone_among_latin(text, n) for n in east_asian)
    han = sum(1 for n in wide if is_han(text[n]))
    hangul = sum(1 for n in wide if "\uac00" <= text[n] <= "\ud7a3")
    common = 0.0
    for n in wide:
        char = text[n]
        if "\u3000" <= char <= "\u303f" or "\uff01" <= char <= "\uff5e" or "\u2010" <= char <= "\u2027":
            common += 1  # CJK and full-width punctuation, dashes and quotes: any script's
        elif read_apart and _east_asian(char):
            common += 0.5 * (_is_common_han(char) or "\u3041" <= char <= "\u30ff")  # half: "是WiFi吗" is Chinese too
        elif "\u3041" <= char <= "\u30ff":
            common += 1  # kana
        elif "\uac00" <= char <= "\ud7a3":
            common += hangul >= han and _is_common_hangul(char)
        elif is_han(char):
            common += han > hangul and _is_common_han(char)
        elif char in "¡¿":  # opening a Spanish question or exclamation, never inside a word ("Mo¿e")
            common += n == 0 or not text[n - 1].isalpha()
        elif char in "€«»°·℃℉":
            common += 1
        elif "\u0370" <= char <= "\u0e7f":  # Greek, Cyrillic, Hebrew, Arabic, Thai: within a word of its own
            neighbours = text[max(0, n - 1):n] + text[n + 1:n + 2]  # ("TschьЯ" is German read as Cyrillic)
            common += any("\u0370" <= other <= "\u0e7f" for other in neighbours) \
                and not any(other.isascii() and other.isalpha() for other in neighbours)
        elif "\u00c0" <= char <= "\u024f" and char.isalpha():
            common += _in_latin_word(text, n)
    return common / len(wide)


def _in_latin_word(text: str, n: int) -> bool:
    """Whether the accented letter ``text[n]`` sits in a word of Latin letters with a plain one in
    it (Tschüß, Cześć), or stands alone as "à"; "ÄãºÃ", a word of nothing but accents, is CJK bytes,
    and so is a capital inside a word that is not all capitals ("ÊÇWiFiÂð", 是WiFi吗 read as cp1252)
    or a small letter after two capitals."""
    start, end = n, n + 1
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    while end < len(text) and text[end].isalpha():
        end += 1
    word = text[start:end]
    return all(char.isascii() or "\u00c0" <= char <= "\u024f" for char in word) \
        and (len(word) == 1 or any(char.isascii() for char in word)) \
        and (not text[n].isupper() or n == start or word.isupper()) \
        and not (text[n].islower() and n - start >= 2 and text[n - 2:n].isupper())  # "KTVžû" is KTV见


def read_text_file(path: str | os.PathLike[str]) -> str:
    """A regular file's text, decoded by :func:`decode_text`; FileError (with a code) otherwise."""
    data = read_regular_file(path)
    try:
        return decode_text(data)
    except ValueError as error:
        raise FileError(ErrorCode.TEXT_ENCODING, f"cannot decode {path} as text: {error}", Path(path)) from None


__all__ = [
    "NEW_FILE_MODE",
    "FileError",
    "atomic_write",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_write_wav",
    "audio_info",
    "check_target",
    "code_of_write_error",
    "decode_text",
    "ensure_dir",
    "open_regular_file",
    "read_audio",
    "read_regular_file",
    "read_text_file",
]
