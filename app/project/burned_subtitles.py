"""Subtitles burned into the picture: each cue drawn once with Pillow, laid onto the frames of its span.

The FFmpeg inside PyAV's wheel has no ``subtitles`` or ``drawtext`` filter (and a system ffmpeg
cannot be counted on), so the text is drawn here:

- **the text** is the cue as the subtitle files have it (:func:`app.project.script_io.subtitle_cues`):
  wrapped to its language's subtitle line (42 characters in English, 16 in Chinese,
  ``engine/core/languages.py``), without "Name: ";
- **the look** is the broadcast one: white letters with a black outline and a soft drop shadow,
  centred at the bottom inside the title-safe area (:data:`SAFE_SIDE`, :data:`SAFE_BOTTOM`), the
  letters :data:`FONT_HEIGHT` of the picture's shorter side; a cue whose widest line would leave
  the safe area is drawn smaller (down to :data:`SHRINK_FLOOR`), then wrapped into shorter lines
  by the same rules (a narrow portrait picture);
- **the font** is one that has every character of the cues (:func:`find_font`): fontconfig's
  choice for each language in them (``fc-match``), then known CJK and Latin fonts of Linux,
  macOS and Windows. Coverage is checked glyph by glyph (a character the font lacks draws its
  "missing glyph" box, compared here), so Chinese never comes out as boxes; when no font has
  them the export stops with ``E_FONT_MISSING``, naming the characters and how to get a font.

Each cue becomes, once, a luma image and an alpha mask in the picture's own YUV 4:2:0 terms
(:class:`CueImage`); a frame inside a cue's span gets it blended into its bottom band
(:meth:`SubtitleBurner.burn`), a frame outside every span is passed on untouched. The text is
neutral (white, black), so only the luma carries it and the chroma is pulled to grey under it.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from app.project import phrases
from app.project.errors import ExportError
from app.project.phrases import Phrase
from engine.core.codes import ErrorCode
from engine.core.languages import detect_language, join_pieces, language_code, rules_for
from engine.core.text import wrap_subtitle

if TYPE_CHECKING:
    import av
    from PIL import ImageFont

FONT_HEIGHT = 0.055  # of the picture's shorter side: 59 px letters on 1080p (or a 1080×1920 portrait)
MIN_FONT_PX = 12  # below this letters stop being legible, however small the picture
SHRINK_FLOOR = 0.75  # a line too wide is drawn down to this fraction of the size; past that it is cut shorter
SAFE_SIDE = 0.10  # of the width kept clear on each side (title-safe)
SAFE_BOTTOM = 0.08  # of the height kept clear under the text
LINE_SPACING = 1.25  # line pitch in font sizes
OUTLINE = 0.08  # outline width in font sizes (at least 1 px)
SHADOW_OFFSET = 0.06  # drop shadow's offset in font sizes (at least 1 px)
SHADOW_OPACITY = 0.6
FC_MATCH_TIMEOUT_S = 5.0
# Fontconfig's language tags for the scripts that need their own fonts; any other language asks for its code.
_FONTCONFIG_LANGUAGES = {"zh": "zh-cn", "ja": "ja", "ko": "ko"}
# Where common fonts live when fontconfig is not there to ask (macOS, Windows, a bare Linux).
KNOWN_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),  # face 2: Simplified Chinese
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/System/Library/Fonts/PingFang.ttc", 0),
    ("/System/Library/Fonts/Hiragino Sans GB.ttc", 0),
    ("C:/Windows/Fonts/msyh.ttc", 0),
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),
    ("/System/Library/Fonts/Helvetica.ttc", 0),
    ("C:/Windows/Fonts/arial.ttf", 0),
)
_ABSENT_CHARACTER = "\U0010fffd"  # a private-use code point no font draws: its glyph is the "missing" box


@dataclass(frozen=True)
class SubtitleFont:
    """A font file and the face inside it (a .ttc holds several)."""

    path: Path
    index: int = 0

    def at(self, size: int) -> ImageFont.FreeTypeFont:
        return _load_font(str(self.path), self.index, size)


@lru_cache(maxsize=32)
def _load_font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(path, size, index=index)


def missing_characters(font: SubtitleFont, characters: Iterable[str]) -> list[str]:
    """The characters ``font`` has no glyph for (drawn as its "missing glyph" box); white space
    and control characters need none."""
    face = font.at(24)
    absent = face.getmask(_ABSENT_CHARACTER)
    absent_key = (absent.size, bytes(absent))
    lacking = []
    for character in dict.fromkeys(characters):
        if character.isspace() or not character.isprintable():
            continue
        mask = face.getmask(character)
        if (mask.size, bytes(mask)) == absent_key:
            lacking.append(character)
    return lacking


def font_candidates(languages: Iterable[str]) -> list[SubtitleFont]:
    """Fonts to try, best first: fontconfig's sans-serif for each language, then :data:`KNOWN_FONTS`."""
    found: list[SubtitleFont] = []
    fc_match = shutil.which("fc-match")
    for language in dict.fromkeys(languages):
        if fc_match is None:
            break
        tag = _FONTCONFIG_LANGUAGES.get(language, language)
        try:
            answer = subprocess.run([fc_match, "--format=%{file}|%{index}", f"sans-serif:lang={tag}"],
                                    capture_output=True, text=True, timeout=FC_MATCH_TIMEOUT_S, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        path, _, index = answer.partition("|")
        if path and Path(path).is_file():
            found.append(SubtitleFont(Path(path), int(index) if index.isdigit() else 0))
    found += [SubtitleFont(Path(path), index) for path, index in KNOWN_FONTS if Path(path).is_file()]
    return list(dict.fromkeys(found))


def find_font(texts: Sequence[str], candidates: Sequence[SubtitleFont] | None = None) -> SubtitleFont:
    """The first font that draws every character of ``texts`` (candidates default to
    :func:`font_candidates` for the texts' languages); ExportError E_FONT_MISSING otherwise."""
    characters = "".join(texts)
    if candidates is None:
        languages = [language_code(detect_language(text)) for text in texts]
        candidates = font_candidates([code for code in languages if code in _FONTCONFIG_LANGUAGES] + ["en"])
    lacking: list[str] = list(dict.fromkeys(c for c in characters if not c.isspace() and c.isprintable()))
    for font in candidates:
        try:
            still = missing_characters(font, characters)
        except OSError:
            continue  # a damaged or unreadable font file: try the next
        if not still:
            return font
        lacking = still if len(still) < len(lacking) else lacking
    shown = " ".join(lacking[:8]) + (" …" if len(lacking) > 8 else "")
    raise ExportError(
        Phrase(phrases.NO_FONT, characters=shown),
        ErrorCode.FONT_MISSING,
    )


@dataclass(frozen=True)
class CueImage:
    """One cue drawn for a picture: where its box sits (even, for 4:2:0 chroma), the text's
    luma premultiplied by its opacity, and the opacity, both (h, w) float32 in video range."""

    start: float
    end: float
    top: int
    left: int
    luma: np.ndarray
    alpha: np.ndarray

    def covers(self, seconds: float) -> bool:
        return self.start <= seconds < self.end


def draw_cue(text: str, start: float, end: float, font: SubtitleFont, size: tuple[int, int],
             full_range: bool = False) -> CueImage:
    """``text`` (its lines already wrapped) drawn bottom-centre for a ``size`` (width, height) picture."""
    from PIL import Image, ImageDraw

    width, height = size
    lines = [line for line in text.splitlines() if line.strip()] or [" "]
    px = max(MIN_FONT_PX, round(min(width, height) * FONT_HEIGHT))
    lines, px = _fitted(lines, font, px, width * (1 - 2 * SAFE_SIDE))
    face = font.at(px)
    outline, shadow = max(1, round(px * OUTLINE)), max(1, round(px * SHADOW_OFFSET))
    pitch = round(px * LINE_SPACING)
    margin = outline + shadow
    inked = max(right - left for left, _, right, _ in (face.getbbox(line, stroke_width=outline) for line in lines))
    box_w = min(width, int(inked) + 2 * margin)
    box_h = min(height, pitch * (len(lines) - 1) + px + px // 3 + 2 * margin)  # room for descenders
    box_w, box_h = box_w + box_w % 2, box_h + box_h % 2
    fill, edge = Image.new("L", (box_w, box_h)), Image.new("L", (box_w, box_h))
    fill_pen, edge_pen = ImageDraw.Draw(fill), ImageDraw.Draw(edge)
    for n, line in enumerate(lines):
        where = (box_w / 2, margin + n * pitch)
        edge_pen.text(where, line, font=face, fill=255, anchor="ma", stroke_width=outline, stroke_fill=255)
        fill_pen.text(where, line, font=face, fill=255, anchor="ma")
    text_alpha = np.asarray(fill, dtype=np.float32) / 255
    edge_alpha = np.asarray(edge, dtype=np.float32) / 255
    shadow_alpha = np.zeros_like(edge_alpha)
    shadow_alpha[shadow:, shadow:] = SHADOW_OPACITY * edge_alpha[:-shadow, :-shadow]
    # Painted bottom to top: the shadow, the black outline, the white letters.
    alpha = text_alpha + (1 - text_alpha) * (edge_alpha + (1 - edge_alpha) * shadow_alpha)
    black, white = (0.0, 255.0) if full_range else (16.0, 235.0)
    luma = black * alpha + (white - black) * text_alpha
    top = int(height * (1 - SAFE_BOTTOM)) - box_h
    top, left = max(0, top - top % 2), max(0, (width - box_w) // 2 // 2 * 2)
    return CueImage(start, end, top, left, luma.astype(np.float32), alpha.astype(np.float32))


def turned(image: CueImage, quarter_turns: int, size: tuple[int, int]) -> CueImage:
    """``image``, drawn upright for the picture as it is shown, placed in the frame as it is
    stored (``size``), which players turn ``quarter_turns`` × 90° counterclockwise to show it."""
    width, height = size
    shown = (width, height) if quarter_turns % 2 == 0 else (height, width)
    canvas = np.zeros((2, shown[1], shown[0]), dtype=np.float32)
    h, w = image.alpha.shape
    canvas[0, image.top : image.top + h, image.left : image.left + w] = image.alpha
    canvas[1, image.top : image.top + h, image.left : image.left + w] = image.luma
    stored = np.rot90(canvas, -quarter_turns, axes=(1, 2))
    rows, columns = np.nonzero(stored[0].any(axis=1))[0], np.nonzero(stored[0].any(axis=0))[0]
    if rows.size == 0:
        return CueImage(image.start, image.end, 0, 0, stored[1, :2, :2].copy(), stored[0, :2, :2].copy())
    top, left = rows[0] // 2 * 2, columns[0] // 2 * 2  # even: the chroma planes are half size
    bottom, right = min(height, (rows[-1] + 2) // 2 * 2), min(width, (columns[-1] + 2) // 2 * 2)
    return CueImage(image.start, image.end, int(top), int(left), stored[1, top:bottom, left:right].copy(),
                    stored[0, top:bottom, left:right].copy())


def _fitted(lines: list[str], font: SubtitleFont, px: int, safe_width: float) -> tuple[list[str], int]:
    """``lines`` and a letter size at which they stay inside ``safe_width``: as they are, or
    smaller letters (not under :data:`SHRINK_FLOOR` of ``px``), or re-wrapped into shorter lines
    by their language's rules (a line with no place to cut may still be too wide)."""
    widest = max(font.at(px).getlength(line) for line in lines)
    if widest <= safe_width:
        return lines, px
    smaller = max(MIN_FONT_PX, int(px * SHRINK_FLOOR), int(px * safe_width / widest))
    face = font.at(smaller)
    longest = max(lines, key=face.getlength)
    if face.getlength(longest) <= safe_width:
        return lines, smaller
    text = join_pieces(lines)
    fits = max(1, int(len(longest) * safe_width / face.getlength(longest)))
    return wrap_subtitle(text, replace(rules_for(detect_language(text)), line_chars=fits)), smaller


class SubtitleBurner:
    """The cues of one export drawn for its picture, laid onto the frames that show them.

    ``rotation`` is the picture's display rotation (degrees counterclockwise, as PyAV reads it:
    a phone's portrait video is stored sideways): the text is drawn upright at the bottom of the
    picture as it is shown, then turned into the stored frame."""

    def __init__(self, cues: Sequence[tuple[float, float, str]], size: tuple[int, int], full_range: bool = False,
                 font: SubtitleFont | None = None, rotation: float = 0.0) -> None:
        # 4:2:0 needs even sides: a picture of odd size (a screen recording's 1079 x 1919) is
        # scaled a pixel smaller before the cues are laid on it (:attr:`size`, the encoder's too).
        width, height = size = self.size = (size[0] // 2 * 2, size[1] // 2 * 2)
        shown = [(start, end, text) for start, end, text in cues if end > start and text.strip()]
        font = font or find_font([text for _, _, text in shown])
        quarter_turns = round(rotation / 90) % 4
        upright = size if quarter_turns % 2 == 0 else (height, width)
        self.images = [draw_cue(text, start, end, font, upright, full_range) for start, end, text in shown]
        if quarter_turns:
            self.images = [turned(image, quarter_turns, size) for image in self.images]

    def showing(self, seconds: float) -> list[CueImage]:
        return [image for image in self.images if image.covers(seconds)]

    def burn(self, frame: av.VideoFrame, seconds: float) -> av.VideoFrame:
        """``frame`` as 4:2:0 at :attr:`size` with the cues showing at ``seconds`` drawn on it; a
        frame that shows none is returned as it is (converted when it was not 4:2:0 at that size)."""
        import av

        if frame.format.name != "yuv420p" or (frame.width, frame.height) != self.size:
            frame = frame.reformat(width=self.size[0], height=self.size[1], format="yuv420p")
        images = self.showing(seconds)
        if not images:
            return frame
        planes = frame.to_ndarray()  # (height * 3 / 2, width): Y, then U and V a quarter each
        height, width = frame.height, frame.width
        luma = planes[:height]
        chroma = planes[height:].reshape(2, height // 2, width // 2)
        for image in images:
            _blend(luma, chroma, image)
        burned = av.VideoFrame.from_ndarray(planes, format="yuv420p")
        burned.pts, burned.time_base = frame.pts, frame.time_base
        burned.colorspace, burned.color_range = frame.colorspace, frame.color_range
        return burned


def _blend(luma: np.ndarray, chroma: np.ndarray, image: CueImage) -> None:
    """Lay ``image`` onto the Y plane and the (2, h/2, w/2) U, V planes, in place."""
    h, w = image.alpha.shape
    h, w = min(h, luma.shape[0] - image.top), min(w, luma.shape[1] - image.left)
    alpha, text = image.alpha[:h, :w], image.luma[:h, :w]
    band = luma[image.top : image.top + h, image.left : image.left + w]
    band[:] = np.clip(band * (1 - alpha) + text + 0.5, 0, 255).astype(np.uint8)
    # Chroma is at half resolution: the mean opacity of each 2×2 block pulls it to grey (128).
    half = alpha[: h // 2 * 2, : w // 2 * 2].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    top, left = image.top // 2, image.left // 2
    for plane in chroma:
        block = plane[top : top + half.shape[0], left : left + half.shape[1]]
        block[:] = np.clip(block * (1 - half) + 128 * half + 0.5, 0, 255).astype(np.uint8)
