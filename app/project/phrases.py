"""Sentences the project layer and the commands build for people, declared once, in the studio's language.

``app/project`` and ``app/commands`` have no Qt, yet some of their sentences reach the studio:
readiness problems, timing warnings, undo texts, the lines of an export's report. Each such
sentence is a :class:`Phrase`: the English sentence itself (the CLI, the logs and project files
use it as the ``str`` it is) that also keeps its **template** and its **arguments**. The studio
says it in its own language with :func:`app.ui.language.say`, which translates the template in
the :data:`CONTEXT` translation context and writes the numbers the way the locale writes them.

The templates are the table below, each marked with ``QT_TRANSLATE_NOOP`` so that
``pyside6-lupdate`` collects it (docs/translations.md); the template's English text is its key,
as it is for every string Qt translates. A template names its arguments (``{order}``,
``{seconds:.2f}``): a translation may put them in any order but keeps each name and number format.
"""

from __future__ import annotations

from app.project.translatable import QT_TRANSLATE_NOOP
from engine.core.languages import LanguageName as LanguageName
from engine.core.languages import LanguageRules
from engine.core.phrases import Phrase as Phrase  # declared once, in the engine's core
from engine.core.phrases import counted as counted

CONTEXT = "phrases"  # the translation context of every template below


def language_name(rules: LanguageRules) -> Phrase:
    """``rules``' name ("Chinese (Mandarin)"), which the studio says in its language."""
    return LanguageName(rules.name)


# --- what stops a render (app/project/readiness.py) -------------------------------------------
LINE_WITHOUT_CHARACTER = QT_TRANSLATE_NOOP("phrases", "line {order} has no character: {quoted}")
CHARACTER_PROBLEM = QT_TRANSLATE_NOOP("phrases", "character {quoted} {problem}; {waiting}")
CLIP_REFUSED = QT_TRANSLATE_NOOP("phrases", "has a clip the engine refuses ({why})")
CLIP_MISSING = QT_TRANSLATE_NOOP("phrases", "has a missing clip ({file})")
NO_CLIP = QT_TRANSLATE_NOOP("phrases", "has no reference clip")
ONE_LINE_WAITS = QT_TRANSLATE_NOOP("phrases", "{count} line waits for it")
LINES_WAIT = QT_TRANSLATE_NOOP("phrases", "{count} lines wait for it")
LINE_PROBLEM = QT_TRANSLATE_NOOP("phrases", "line {order}: {problem}")

# --- a line's pace against its slot (app/project/timing.py) -----------------------------------
PACE_MEASURED_ONE = QT_TRANSLATE_NOOP("phrases", "{cps:.1f} characters/s, measured from {count} take")
PACE_MEASURED = QT_TRANSLATE_NOOP("phrases", "{cps:.1f} characters/s, measured from {count} takes")
PACE_TYPICAL = QT_TRANSLATE_NOOP("phrases", "{cps:.1f} characters/s, a typical pace: no takes of this voice yet")
OVERLAPS_ONE = QT_TRANSLATE_NOOP("phrases", "Overlaps line {others} of the same character: one voice cannot say both at once.")
OVERLAPS = QT_TRANSLATE_NOOP("phrases", "Overlaps lines {others} of the same character: one voice cannot say both at once.")
TOO_FAST = QT_TRANSLATE_NOOP("phrases", "Too fast to say naturally: {cps:.1f} characters/s (over {limit:.3g} in {language}); shorten the text or widen the slot.")
FAST = QT_TRANSLATE_NOOP("phrases", "Fast: {cps:.1f} characters/s (comfortable up to {limit:.3g} in {language}).")
LIKELY_TOO_LONG = QT_TRANSLATE_NOOP("phrases", "Likely too long: about {expected:.1f} s of speech for a {slot:.2f} s slot.")
OPEN_SLOT = QT_TRANSLATE_NOOP("phrases", "open slot (no end, and no timed line after it)")
SLOT_PACE = QT_TRANSLATE_NOOP("phrases", "{cps:.1f} characters/s, {wpm:.0f} words/min over a {slot:.2f} s slot")
EXPECTED = QT_TRANSLATE_NOOP("phrases", "{pace}\nExpected about {expected:.1f} s at this voice's pace ({voice})")

# --- undo texts (app/project/undo.py, the Edit menu's Undo/Redo) -------------------------------
EDIT = QT_TRANSLATE_NOOP("phrases", "Edit")
ADD_LINE = QT_TRANSLATE_NOOP("phrases", "Add line")
ADD_LINES = QT_TRANSLATE_NOOP("phrases", "Add {count} lines")
REMOVE_LINE = QT_TRANSLATE_NOOP("phrases", "Remove line")
REMOVE_LINES = QT_TRANSLATE_NOOP("phrases", "Remove {count} lines")
MOVE_LINE = QT_TRANSLATE_NOOP("phrases", "Move line")
MOVE_LINES = QT_TRANSLATE_NOOP("phrases", "Move {count} lines")
EDIT_TEXT = QT_TRANSLATE_NOOP("phrases", "Edit text")
CHANGE_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Change character")
FIT_TO_SLOT = QT_TRANSLATE_NOOP("phrases", "Fit to slot")
CHANGE_LINE_SPEED = QT_TRANSLATE_NOOP("phrases", "Change line speed")
EDIT_LINE = QT_TRANSLATE_NOOP("phrases", "Edit line")
CHANGE_LINE_DELIVERY = QT_TRANSLATE_NOOP("phrases", "Change line delivery")
CHANGE_LINE_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "Change line language")
EDIT_SOURCE_TEXT = QT_TRANSLATE_NOOP("phrases", "Edit source text")
MARK_TRANSLATION_CHECKED = QT_TRANSLATE_NOOP("phrases", "Mark translation checked")
EDIT_TIMECODE = QT_TRANSLATE_NOOP("phrases", "Edit timecode")
ASSIGN_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Assign character")
CHOOSE_TAKE = QT_TRANSLATE_NOOP("phrases", "Choose take")
ADD_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Add character {name}")
REMOVE_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Remove character")
RENAME_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Rename character")
EDIT_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Edit character")
EDIT_PROJECT_SETTINGS = QT_TRANSLATE_NOOP("phrases", "Edit project settings")
SET_VIDEO = QT_TRANSLATE_NOOP("phrases", "Set video")
REMOVE_VIDEO = QT_TRANSLATE_NOOP("phrases", "Remove video")
REMOVE_STEM = QT_TRANSLATE_NOOP("phrases", "Remove the music-and-effects stem")  # an Edit menu label: no "&"
SPLIT_LINE = QT_TRANSLATE_NOOP("phrases", "Split line")
MERGE_LINES = QT_TRANSLATE_NOOP("phrases", "Merge {count} lines")
REPLACE_ONE = QT_TRANSLATE_NOOP("phrases", "Replace '{find}' in {count} line")
REPLACE = QT_TRANSLATE_NOOP("phrases", "Replace '{find}' in {count} lines")
MERGE_CHARACTERS = QT_TRANSLATE_NOOP("phrases", "Merge characters")
SPLIT_CHARACTER = QT_TRANSLATE_NOOP("phrases", "Split {name} off")
SHORTEN_ONE = QT_TRANSLATE_NOOP("phrases", "Shorten line to fit")
SHORTEN = QT_TRANSLATE_NOOP("phrases", "Shorten {count} lines to fit")
TRANSLATE_ONE = QT_TRANSLATE_NOOP("phrases", "Translate line")
TRANSLATE = QT_TRANSLATE_NOOP("phrases", "Translate {count} lines")
ACCEPT_TRANSLATION = QT_TRANSLATE_NOOP("phrases", "Accept translation")
ACCEPT_TRANSLATIONS = QT_TRANSLATE_NOOP("phrases", "Accept {count} translations")
EDIT_GLOSSARY = QT_TRANSLATE_NOOP("phrases", "Edit glossary")
TRANSCRIBE_DIALOGUE = QT_TRANSLATE_NOOP("phrases", "Transcribe the dialogue")
IMPORT = QT_TRANSLATE_NOOP("phrases", "Import {name}")
SET_TARGET_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "Dub into {language}")
NO_TARGET_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "Dub in the original's language")

# --- fitting a take into its slot (app/project/model.py Fit) ------------------------------------
FITTED = QT_TRANSLATE_NOOP("phrases", "fitted: {how}")
FIT_INTO_SILENCE = QT_TRANSLATE_NOOP("phrases", "into the silence")
FIT_RATE = QT_TRANSLATE_NOOP("phrases", "rate {rate:.2f}×")
FIT_RATE_STRETCH = QT_TRANSLATE_NOOP("phrases", "rate {rate:.2f}× + stretch {stretch:.2f}×")

# --- what an import or a transcription warns of (script_io, transcription, cast) ----------------
BILINGUAL_SUBTITLES = QT_TRANSLATE_NOOP(
    "phrases", "the subtitles are bilingual ({languages} on each cue), so every line holds both; to dub one "
    "language and keep the other as each line's original, make the project again with --keep-language and one "
    "of them (given: {given})")
SKIPPED_SUBTITLE = QT_TRANSLATE_NOOP("phrases", "{file}, line {line}: subtitle {index} has no text; skipped")
SKIPPED_CUE = QT_TRANSLATE_NOOP("phrases", "{file}, line {line}: the cue has no text; skipped")

# --- why a script file cannot be imported (app/project/script_io.py, ImportFormatError) ---------
AT_LINE = QT_TRANSLATE_NOOP("phrases", "{where}, line {line}: {problem}")
AT_FILE = QT_TRANSLATE_NOOP("phrases", "{where}: {problem}")
INPUT = QT_TRANSLATE_NOOP("phrases", "input")
CANNOT_DECODE = QT_TRANSLATE_NOOP("phrases", "cannot decode the file as {encoding}: {error}")
TEXT = QT_TRANSLATE_NOOP("phrases", "text")
CONTROL_CHARACTER = QT_TRANSLATE_NOOP("phrases", "holds a control character ({name}), which no script has; is it a "
                                                 "binary file, or UTF-16 saved without a byte-order mark? Save it as "
                                                 "UTF-8 text")
NO_SUBTITLES = QT_TRANSLATE_NOOP("phrases", "no subtitles found (is this an SRT file?)")
EMPTY_SCRIPT_FILE = QT_TRANSLATE_NOOP("phrases", "the file is empty (it holds no text, or only blank lines): nothing to import")
NO_LINES_IN_FILE = QT_TRANSLATE_NOOP("phrases", "the file holds no lines, only its header: nothing to import")
MALFORMED_SRT_TIME = QT_TRANSLATE_NOOP("phrases", "malformed timecode line {quoted} (expected 'HH:MM:SS,mmm --> "
                                                  "HH:MM:SS,mmm')")
NOT_A_BLOCK = QT_TRANSLATE_NOOP("phrases", "not a valid subtitle block (near {quoted}); expected an index, "
                                           "'HH:MM:SS,mmm --> HH:MM:SS,mmm' and text")
NOT_WEBVTT = QT_TRANSLATE_NOOP("phrases", "not a WebVTT file: its first line must be 'WEBVTT'")
NOT_A_CUE = QT_TRANSLATE_NOOP("phrases", "not a valid cue (near {quoted}); expected a time line (expected "
                                         "'HH:MM:SS.mmm --> HH:MM:SS.mmm' or 'MM:SS.mmm --> MM:SS.mmm') and text")
MALFORMED_VTT_TIME = QT_TRANSLATE_NOOP("phrases", "malformed timecode line {quoted} (expected 'HH:MM:SS.mmm --> "
                                                  "HH:MM:SS.mmm' or 'MM:SS.mmm --> MM:SS.mmm')")
MALFORMED_ASS_TIME = QT_TRANSLATE_NOOP("phrases", "malformed time {quoted} (expected 'H:MM:SS.cc')")
DIALOGUE_BEFORE_FORMAT = QT_TRANSLATE_NOOP("phrases", "a Dialogue line before the [Events] Format line that names "
                                                      "Start, End and Text")
DIALOGUE_FIELDS = QT_TRANSLATE_NOOP("phrases", "a Dialogue line with {found} of its {expected} fields")
NO_DIALOGUE = QT_TRANSLATE_NOOP("phrases", "no Dialogue lines found in an [Events] section (is this an ASS file?)")
MALFORMED_SBV_TIME = QT_TRANSLATE_NOOP("phrases", "not a cue's time line: {quoted} (expected 'H:MM:SS.mmm,H:MM:SS.mmm', as YouTube's SBV files write it)")
NO_LYRICS = QT_TRANSLATE_NOOP("phrases", "no timed lyrics found (expected lines such as '[01:23.45]words', as LRC files write them)")
MALFORMED_LRC_LINE = QT_TRANSLATE_NOOP("phrases", "not a timed lyric: {quoted} (expected '[mm:ss.xx]words')")
MALFORMED_CSV_ROW = QT_TRANSLATE_NOOP("phrases", "malformed CSV row: {error}")
TOO_FEW_COLUMNS = QT_TRANSLATE_NOOP("phrases", "expected at least {expected} columns (character, text), found {found}")
BAD_START_TIME = QT_TRANSLATE_NOOP("phrases", "bad start time: {error}")
BAD_END_TIME = QT_TRANSLATE_NOOP("phrases", "bad end time: {error}")
BAD_LANGUAGE_CELL = QT_TRANSLATE_NOOP("phrases", "bad language {quoted}: write a language code ({codes}), or leave it empty for the character's")
BAD_DRAFT_MARK = QT_TRANSLATE_NOOP("phrases", "bad draft mark {quoted}: write {yes} for a translation still to check, "
                                              "or leave it empty")
EXPECTED_NAME_LINE = QT_TRANSLATE_NOOP("phrases", "expected 'Name: line' or '[Name] line', found {quoted}")
NO_SCRIPT_LINES = QT_TRANSLATE_NOOP("phrases", "no script lines found")
SKIPPED_DIALOGUE = QT_TRANSLATE_NOOP("phrases", "{file}, line {line}: the dialogue has no text; skipped")
ZERO_LENGTH_CUES = QT_TRANSLATE_NOOP("phrases", "{file}: the cues at {times} last no time; each was kept with its end left open (its line may run until the next one)")
CUES_PAST_VIDEO = QT_TRANSLATE_NOOP("phrases", "{file}: the cues at {times} run past the end of the video ({end:.2f} s); what is past it will be neither heard nor shown")
SKIPPED_ROW = QT_TRANSLATE_NOOP("phrases", "{file}, line {line}: no text; row skipped")
SKIPPED_HEADING = QT_TRANSLATE_NOOP("phrases", "{file}, line {lines}: a scene heading or an action line (△), which no one says; skipped")
SKIPPED_HEADINGS = QT_TRANSLATE_NOOP("phrases", "{file}, lines {lines}: scene headings and action lines (△), which no one says; skipped")
SKIPPED_SIGN = QT_TRANSLATE_NOOP("phrases", "{file}, line {lines}: a sign or title, not dialogue (no name, and placed on the picture by \\pos or in a style named for signs, titles or songs); skipped. To dub it, give it a name in the Name field")
SKIPPED_SIGNS = QT_TRANSLATE_NOOP("phrases", "{file}, lines {lines}: {count} signs or titles, not dialogue (no name, and placed on the picture by \\pos or in a style named for signs, titles or songs); skipped. To dub one, give it a name in the Name field")
LANGUAGE_GIVEN_NOT_HEARD = QT_TRANSLATE_NOOP("phrases", "the dialogue was heard in {given} as asked, but it sounds like {heard} ({confidence:.0%} sure): --language names the language spoken in the video, not the one to dub into; check the lines")
ENGLISH_ONLY_MODEL = QT_TRANSLATE_NOOP("phrases", "{model} hears English only: a dialogue in another language comes out as English-sounding words that were never said; transcribe it with a multilingual model (base, the default)")
LANGUAGE_UNSURE = QT_TRANSLATE_NOOP("phrases", "the language was heard as {quoted} with only {confidence:.0%} confidence; pass --language CODE if that is wrong")
HEARD_AGAIN = QT_TRANSLATE_NOOP("phrases", "{name} was heard again: the lines of that voice go to {existing} (voice cosine {score:.2f}), no new character")
LEFT_WITHOUT_VOICE = QT_TRANSLATE_NOOP("phrases", "{name} has no line in the new transcription and no clip or voice chosen by hand: removed (Edit › Undo brings it back)")
TOO_LITTLE_FOR_A_CLIP = QT_TRANSLATE_NOOP("phrases", "{name} says too little for a reference clip (under {seconds:.0f} s alone); give them a clip")
WHISPER_TRANSLATION_DRAFTS = QT_TRANSLATE_NOOP("phrases", "the English lines are {model}'s translation, marked as drafts to check; a larger downloaded model (Settings) translates far better")
CAST_SURE = QT_TRANSLATE_NOOP("phrases", "{name} is {member} from the cast library (voice cosine {score:.2f}, sure)")
# ... when the voice had only the number the transcription gave it, a name no one sees once it is cast
CAST_SURE_HEARD = QT_TRANSLATE_NOOP("phrases", "{member} from the cast library speaks here (voice cosine {score:.2f}, sure)")
CAST_OFFERED = QT_TRANSLATE_NOOP("phrases", "{name} may be {member} from the cast library (voice cosine {score:.2f}, under the {needed:.2f} needed to be sure): not cast; Accept or Reject it on the Characters panel")
CAST_NEW = QT_TRANSLATE_NOOP("phrases", "{name} is a new voice (closest in the cast library: cosine {score:.2f})")
CAST_RENUMBERED = QT_TRANSLATE_NOOP("phrases", "{name} is a new voice (closest in the cast library: cosine {score:.2f}), now called {renamed}: another voice was cast as the library's {name}")
CAST_SAVED_APART = QT_TRANSLATE_NOOP("phrases", "{name}, saved as {saved}: it does not sound like the cast library's {name} (voice cosine {score:.2f})")
CAST_NAME_TAKEN = QT_TRANSLATE_NOOP("phrases", "{name} sounds like {member} from the cast library (voice cosine {score:.2f}, sure), but the project already has a character called {member}: not cast")

# --- an export's report (app/project/export_registry.py, app/project/export.py) ----------------
EXPORTED = QT_TRANSLATE_NOOP("phrases", "Exported {format}: {files}")
EXPORTED_MORE = QT_TRANSLATE_NOOP("phrases", "Exported {format}: {files} (+{more} more)")
# Export all by its own words: "Exported Export all (delivery folder)" named the menu entry twice.
DELIVERED = QT_TRANSLATE_NOOP("phrases", "Exported everything into the delivery folder {files}")
LEFT_OUT_ONE = QT_TRANSLATE_NOOP("phrases", "{count} line has no take and was left out: {orders}")
LEFT_OUT = QT_TRANSLATE_NOOP("phrases", "{count} lines have no take and were left out: {orders}")
FAILED_QA_ONE = QT_TRANSLATE_NOOP("phrases", "{count} take in it failed QA (line {orders}; {hint})")
FAILED_QA = QT_TRANSLATE_NOOP("phrases", "{count} takes in it failed QA (lines {orders}; {hint})")
LOUDNESS = QT_TRANSLATE_NOOP("phrases", "loudness: {level} (target {target:g} LUFS, ceiling {ceiling:g} dBTP)")
LOUDNESS_LIMITED = QT_TRANSLATE_NOOP("phrases", "loudness: {level} (target {target:g} LUFS, ceiling {ceiling:g} dBTP); the limiter took the peaks down")
LOUDNESS_OFF = QT_TRANSLATE_NOOP("phrases", "loudness: {level} (loudness normalisation off)")
LOUDNESS_OFF_LIMITED = QT_TRANSLATE_NOOP("phrases", "loudness: {level} (loudness normalisation off); the limiter took the peaks down")
TURNED_DOWN = QT_TRANSLATE_NOOP("phrases", "the mix was turned down {db:.1f} dB to avoid clipping")
NOTE = QT_TRANSLATE_NOOP("phrases", "note: {note}")
DUB_PAST_VIDEO = QT_TRANSLATE_NOOP("phrases", "the dub ran {seconds:.2f} s past the end of the video and was cut there")
CUES_CUT_AT_VIDEO_END = QT_TRANSLATE_NOOP("phrases", "the subtitles of lines {orders} ran past the end of the video ({end:.2f} s) and now end there")
CUES_AFTER_VIDEO_END = QT_TRANSLATE_NOOP("phrases", "the subtitles of lines {orders} start after the end of the video ({end:.2f} s) and were left out")
MUSIC_EFFECTS_MADE = QT_TRANSLATE_NOOP("phrases", "M&E: {method}")
# How the music and effects under the dub were made (app/project/music_effects.py).
ME_CLIENT_STEM = QT_TRANSLATE_NOOP("phrases", "client stem")
ME_DROP_CENTRE = QT_TRANSLATE_NOOP("phrases", "the surround mix without its centre channel")
ME_CENTRE_FILTER = QT_TRANSLATE_NOOP("phrases", "the stereo mix with its centre taken out")
ME_SEPARATED = QT_TRANSLATE_NOOP("phrases", "the original audio with its voices taken out by a separation model ({model})")
LINE_DETAIL = QT_TRANSLATE_NOOP("phrases", "line {order}: {what}")
STILL_OVERRUNS = QT_TRANSLATE_NOOP("phrases", "still overruns: {overrun}")
OVERRUN = QT_TRANSLATE_NOOP("phrases", "line {order} ({character}) runs {overrun:.2f} s past its slot (take {duration:.2f} s from {start:.2f} s, slot ends at {slot_end:.2f} s)")
NO_CHARACTER = QT_TRANSLATE_NOOP("phrases", "no character")
LEVEL = QT_TRANSLATE_NOOP("phrases", "{lufs:.1f} LUFS, true peak {peak:.1f} dBTP")
LEVEL_SILENT_PEAK = QT_TRANSLATE_NOOP("phrases", "{lufs:.1f} LUFS, true peak silent")
LEVEL_UNMEASURABLE = QT_TRANSLATE_NOOP("phrases", "unmeasurable (too short or silent), true peak {peak:.1f} dBTP")
LEVEL_NOTHING = QT_TRANSLATE_NOOP("phrases", "unmeasurable (too short or silent), true peak silent")

# --- speech the transcription heard no words in (app/project/transcription.py) ------------------
WORDLESS_ONE = QT_TRANSLATE_NOOP("phrases", "1 stretch of speech had no words ({seconds:.1f} s): see it on the timeline")
WORDLESS_MANY = QT_TRANSLATE_NOOP("phrases", "{count} stretches of speech had no words ({seconds:.1f} s): see them on the timeline")

# --- why an export cannot be made (export, export_registry, delivery, video_export, music_effects,
# burned_subtitles: the detail under an ExportError's headline) ----------------------------------
CANNOT_READ_TAKE = QT_TRANSLATE_NOOP("phrases", "cannot read take {path}: {error}")
NOTHING_TO_MIX = QT_TRANSLATE_NOOP("phrases", "nothing to mix: no line has a rendered take yet")
NOTHING_TO_EXPORT = QT_TRANSLATE_NOOP("phrases", "nothing to export: no line has a rendered take yet")
MIX_TOO_LONG = QT_TRANSLATE_NOOP("phrases", "the mix would be {hours:.1f} h long; DubStudio mixes up to {limit:.0f} h (check the lines' timecodes and the gap between lines)")
CANNOT_READ_IMPORTED_STEM = QT_TRANSLATE_NOOP("phrases", "cannot read the imported music-and-effects stem: {error}")
NO_ORIGINAL_AUDIO = QT_TRANSLATE_NOOP("phrases", "the project has no original audio to take music and effects from; add a video with audio or choose another original-audio setting")
ORIGINAL_TOO_LONG = QT_TRANSLATE_NOOP("phrases", "{file} lasts over {limit:.0f} h; DubStudio takes music and effects from up to {limit:.0f} h")
CANNOT_READ_ORIGINAL = QT_TRANSLATE_NOOP("phrases", "cannot read the original audio {file}: {error}")
GUIDE_TOO_LONG = QT_TRANSLATE_NOOP("phrases", "the guide track {file} lasts {hours:.1f} h; DubStudio mixes a guide of up to {limit:.0f} h")
CANNOT_READ_GUIDE = QT_TRANSLATE_NOOP("phrases", "cannot read the guide track {file}: {error}")
UNKNOWN_EXPORT = QT_TRANSLATE_NOOP("phrases", "unknown export {name}; choose from {choices}")
NO_LINES_TO_DELIVER = QT_TRANSLATE_NOOP("phrases", "the project has no lines to deliver")
DELIVERY_CANCELLED = QT_TRANSLATE_NOOP("phrases", "the delivery was cancelled; nothing was written")
MIX_CANCELLED = QT_TRANSLATE_NOOP("phrases", "the mix was cancelled; nothing was written")
UNKNOWN_CONTAINER = QT_TRANSLATE_NOOP("phrases", "unknown container {value}; choose mp4 or mkv")
UNKNOWN_AUDIO_CODEC = QT_TRANSLATE_NOOP("phrases", "unknown audio codec {value}; choose aac or opus")
BAD_AUDIO_BITRATE = QT_TRANSLATE_NOOP("phrases", "audio bitrate must be 32-512 kb/s, got {kbps} kb/s")
BAD_TRACK_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "language must be a three-letter ISO 639-2 code such as eng, got {value}")
UNKNOWN_BURN_IN = QT_TRANSLATE_NOOP("phrases", "unknown subtitles to burn in {value}; choose target or source")
NO_VIDEO = QT_TRANSLATE_NOOP("phrases", "the project has no video; add one (dubstudio new --video, or File › New from video)")
VIDEO_MISSING = QT_TRANSLATE_NOOP("phrases", "the project's video {path} is missing")
WRONG_SUFFIX = QT_TRANSLATE_NOOP("phrases", "{file}: a {container} file must end in .{suffix}")
NO_VIDEO_STREAM = QT_TRANSLATE_NOOP("phrases", "{file} has no video stream")
AUDIO_ONLY_GIVEN_AS_VIDEO = QT_TRANSLATE_NOOP("phrases", "{file} has no video stream: it is a recording with no picture; dub it as audio (dubstudio new --audio)")
NO_SOUND_TO_DUB = QT_TRANSLATE_NOOP("phrases", "{file} has no audio stream: nothing to dub")
NO_PICTURE = QT_TRANSLATE_NOOP("phrases", "the project has no picture: its source {file} is audio only; export the mix, the stems or the lines instead, or set a video (Project › Set video…)")
VIDEO_EXPORT_CANCELLED = QT_TRANSLATE_NOOP("phrases", "the video export was cancelled; nothing was written")
CANNOT_WRITE_CONTAINER = QT_TRANSLATE_NOOP("phrases", "cannot write a {container} with these streams ({error}); try --video-format mkv, which holds any codec")
NO_PICTURE_ENCODER = QT_TRANSLATE_NOOP("phrases", "this FFmpeg build has no H.264 or MPEG-4 encoder to re-encode the picture with")
NO_FRONT_CENTRE = QT_TRANSLATE_NOOP("phrases", "a {count}-channel layout ({layout}) has no front centre to drop")
NO_AUDIO_FOR_STEM = QT_TRANSLATE_NOOP("phrases", "{file} has no audio to take music and effects from")
MONO_ORIGINAL = QT_TRANSLATE_NOOP("phrases", "{file}'s audio is mono: music and effects cannot be parted from the dialogue by channels; import a music-and-effects stem instead")
NO_STEM = QT_TRANSLATE_NOOP("phrases", "the project has no imported music-and-effects stem to remove")
STEM_WITHOUT_VIDEO = QT_TRANSLATE_NOOP("phrases", "a music-and-effects stem is aligned to the video; the project has no video yet")
CANNOT_READ_STEM = QT_TRANSLATE_NOOP("phrases", "cannot read the stem {file}: {error}")
STEM_RATE_TOO_LOW = QT_TRANSLATE_NOOP("phrases", "the stem {file} is at {rate} Hz; a delivery stem needs at least {needed} Hz")
STEM_LENGTH = QT_TRANSLATE_NOOP("phrases", "the stem {file} lasts {seconds:.2f} s but the video {video:.2f} s; a stem must start with the video and be as long")
SEPARATION_CANCELLED = QT_TRANSLATE_NOOP("phrases", "the separation was cancelled; nothing was written")
NO_FONT = QT_TRANSLATE_NOOP("phrases", "no installed font can draw the subtitles' characters {characters}; install a font that covers them (for Chinese, Japanese and Korean on Debian or Ubuntu: apt install fonts-noto-cjk) and export again")

# --- why a video cannot be opened or read (app/project/media.py, MediaError's detail) -----------
NONE = QT_TRANSLATE_NOOP("phrases", "none")
VIDEO_NOT_FOUND = QT_TRANSLATE_NOOP("phrases", "video not found: {detail}")
VIDEO_UNREADABLE = QT_TRANSLATE_NOOP("phrases", "cannot read the video: {detail}")
NOT_A_VIDEO = QT_TRANSLATE_NOOP("phrases", "cannot read {file} as a video: {error}")
VIDEO_TOO_LONG = QT_TRANSLATE_NOOP("phrases", "{file} claims to last {hours:.1f} h; DubStudio dubs videos of up to {limit:.0f} h")
VIDEO_OUTSIDE = QT_TRANSLATE_NOOP("phrases", "{path} is outside the project folder; copy it in (the default) or move it into the project")
NO_TEXT_SUBTITLES = QT_TRANSLATE_NOOP("phrases", "{file} has no text subtitle stream (subtitle streams: {found})")
NO_SUBTITLE_STREAM = QT_TRANSLATE_NOOP("phrases", "{file} has no subtitle stream #{index} (subtitle streams: {found})")
PICTURE_SUBTITLES = QT_TRANSLATE_NOOP("phrases", "subtitle stream #{index} of {file} is {codec} (pictures, not text); export it as SRT with an OCR tool and pass that file instead")
CANNOT_READ_SUBTITLES = QT_TRANSLATE_NOOP("phrases", "cannot read subtitle stream #{index} of {file}: {error}")
NO_SAMPLE_RATE = QT_TRANSLATE_NOOP("phrases", "the audio stream of {file} has no sample rate")
DECODING_CANCELLED = QT_TRANSLATE_NOOP("phrases", "decoding the audio of {file} was cancelled")
AUDIO_TOO_LONG = QT_TRANSLATE_NOOP("phrases", "the audio of {file} runs past {limit:.0f} h, the longest DubStudio dubs")
CANNOT_DECODE_AUDIO = QT_TRANSLATE_NOOP("phrases", "cannot decode the audio of {file}: {error}")
NO_VIDEO_FOR_GUIDE = QT_TRANSLATE_NOOP("phrases", "the project has no video to take the original audio from")
NO_AUDIO_STREAM = QT_TRANSLATE_NOOP("phrases", "{file} has no audio stream")
NO_AUDIO_STREAM_NUMBER = QT_TRANSLATE_NOOP("phrases", "{file} has no audio stream #{index}")

# --- why a project cannot be opened or saved (app/project/codec.py, project.json) ---------------
NOT_A_PROJECT = QT_TRANSLATE_NOOP("phrases", "{folder} is not a DubStudio project (no {file})")
CANNOT_READ_PROJECT = QT_TRANSLATE_NOOP("phrases", "cannot read {file}: {error}")
NOT_UTF8 = QT_TRANSLATE_NOOP("phrases", "cannot read {file}: it is not UTF-8 text ({error})")
NOT_A_JSON_NUMBER = QT_TRANSLATE_NOOP("phrases", "{file} holds {name}, which is not a number JSON allows (was it edited by hand?)")
NOT_JSON = QT_TRANSLATE_NOOP("phrases", "{file} is not valid JSON (line {line}: {error})")
FAR_TOO_DEEP = QT_TRANSLATE_NOOP("phrases", "{file} is nested far too deeply to be a project")
NOT_A_PROJECT_OBJECT = QT_TRANSLATE_NOOP("phrases", "{file} does not hold a project object")
TOO_DEEP = QT_TRANSLATE_NOOP("phrases", "{file} is nested more than {limit} levels deep; a project is about 6")
MISSING_KEY = QT_TRANSLATE_NOOP("phrases", "{where}: missing '{key}'")
WRONG_TYPE = QT_TRANSLATE_NOOP("phrases", "{where}: '{key}' has the wrong type ({value})")
NOT_NON_NEGATIVE = QT_TRANSLATE_NOOP("phrases", "{where}: '{key}' must be a non-negative number ({value})")
NOT_FINITE = QT_TRANSLATE_NOOP("phrases", "{where}: '{key}' must be a finite number ({value})")
EXPECTED_OBJECT = QT_TRANSLATE_NOOP("phrases", "{where}: expected an object")
FIT_NOT_OBJECT = QT_TRANSLATE_NOOP("phrases", "{where}: 'fit' must be an object")
FIT_NOT_POSITIVE = QT_TRANSLATE_NOOP("phrases", "{where}: fit rate and stretch must be positive")
UNKNOWN_STATUS = QT_TRANSLATE_NOOP("phrases", "{where}: unknown status {value}")
UNKNOWN_CHOSEN_TAKE = QT_TRANSLATE_NOOP("phrases", "{where}: 'chosen_take' names take {take}, which the line does not have (its takes: {takes})")
BAD_TARGET_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "project: 'target_language' is not a language code ({value})")
SHARED_CHARACTER_ID = QT_TRANSLATE_NOOP("phrases", "two characters share an id")
SHARED_LINE_ID = QT_TRANSLATE_NOOP("phrases", "two lines share an id")
UNKNOWN_CHARACTER = QT_TRANSLATE_NOOP("phrases", "line {order} ({id}) names unknown character {character}")
CANNOT_SAVE = QT_TRANSLATE_NOOP("phrases", "cannot save {file}: {error}")
CANNOT_BACK_UP = QT_TRANSLATE_NOOP("phrases", "cannot keep a backup of {file}: {error}")

# --- values a project refuses (app/project/model.py, InvalidValueError's detail) ----------------
BAD_ID = QT_TRANSLATE_NOOP("phrases", "{what} {value} is not a valid id (1-64 letters, digits, '_' or '-', not starting with '_' or '-')")
BAD_SETTING_CHOICE = QT_TRANSLATE_NOOP("phrases", "setting {name} must be one of {choices}, got {value}")
BAD_FIT_DEFAULT = QT_TRANSLATE_NOOP("phrases", "setting fit_default must be true or false, got {value}")
BAD_PURITY = QT_TRANSLATE_NOOP("phrases", "{name}'s clip purity must be from -2 to 2, got {value}")
TRIM_BACKWARDS = QT_TRANSLATE_NOOP("phrases", "{name}'s clip trim ends ({end:.3f} s) before it starts ({start:.3f} s)")
TRIM_TOO_SHORT = QT_TRANSLATE_NOOP("phrases", "{name}'s clip trim keeps less than 0.1 s")
LINE_BACKWARDS = QT_TRANSLATE_NOOP("phrases", "{what} ends ({end}) before it starts ({start})")
BAD_LINE_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "{what}: the line's language is {value}, which is not one the studio knows ({codes}); leave it empty to follow the character")
BAD_BUDGET = QT_TRANSLATE_NOOP("phrases", "{what}: a budget is a whole number of at least 1 {units}, got {limit} {unit}")

# --- why a cast library cannot be read or written (app/project/cast.py, CastLibraryError) -------
NO_CAST_FOLDER = QT_TRANSLATE_NOOP("phrases", "{folder}: no such cast library folder")
NO_CAST_FOLDER_MAKE_ONE = QT_TRANSLATE_NOOP("phrases", "{folder}: no such cast library folder (make one with dubstudio cast add)")
NOT_A_CAST_LIBRARY_FOLDER = QT_TRANSLATE_NOOP("phrases", "{folder} is not a cast library: it has no {file}")
CAST_FILE_DAMAGED = QT_TRANSLATE_NOOP("phrases", "{file} is damaged: {error}")
NOT_A_CAST_LIBRARY = QT_TRANSLATE_NOOP("phrases", "{file} is not a DubStudio cast library")
CAST_BAD_VERSION = QT_TRANSLATE_NOOP("phrases", "{file}: bad version {value}")
CAST_TOO_NEW = QT_TRANSLATE_NOOP("phrases", "{file} is version {version}, written by a newer DubStudio (this one reads up to {readable}); update DubStudio")
CAST_NO_CHARACTERS = QT_TRANSLATE_NOOP("phrases", "{file} is damaged: no list of characters")
VOICEPRINTS_UNREADABLE = QT_TRANSLATE_NOOP("phrases", "{where}: the voiceprints {file} cannot be read ({error})")
VOICEPRINTS_DAMAGED = QT_TRANSLATE_NOOP("phrases", "{where}: the voiceprints {file} are damaged")
SOMEONE_ELSE = QT_TRANSLATE_NOOP("phrases", "someone else")
CAST_LOCKED = QT_TRANSLATE_NOOP("phrases", "the cast library {folder} is being written by {holder}; waited {seconds:.0f} s, try again later")
NO_CLIP_TO_SAVE = QT_TRANSLATE_NOOP("phrases", "{name} has no voice clip to save to the cast library")
CLIP_UNREADABLE = QT_TRANSLATE_NOOP("phrases", "{name}'s clip {file} cannot be read: {error}")
NO_SUCH_PROJECT_CHARACTER = QT_TRANSLATE_NOOP("phrases", "the project has no character {name}")
NO_SUCH_CAST_MEMBER = QT_TRANSLATE_NOOP("phrases", "the cast library has no character {name}")
NO_CLIP_IN_CAST = QT_TRANSLATE_NOOP("phrases", "{name} has no clip in the cast library {folder}")
CAST_NO_LONGER_HAS = QT_TRANSLATE_NOOP("phrases", "the cast library {folder} no longer has {name}")
CHARACTER_NAME_TAKEN = QT_TRANSLATE_NOOP("phrases", "the project already has a character called {name}")
CAST_CLIP_UNREADABLE = QT_TRANSLATE_NOOP("phrases", "the cast library's clip {file} cannot be read: {error}")

# --- edits a project refuses (app/project/undo.py, InvalidValueError / UnknownIdError) ----------
LINE_ID_TAKEN = QT_TRANSLATE_NOOP("phrases", "line id {id} already exists")
NO_CHARACTER_WITH_ID = QT_TRANSLATE_NOOP("phrases", "no character with id {id}")
EDIT_LINE_NOTHING = QT_TRANSLATE_NOOP("phrases", "EditLine needs at least one field to change")
LINE_TEXT_NOT_TEXT = QT_TRANSLATE_NOOP("phrases", "line text must be a string")
BAD_LINE_FIT = QT_TRANSLATE_NOOP("phrases", "fit must be true, false or none (the project default)")
INSTRUCTION_NOT_TEXT = QT_TRANSLATE_NOOP("phrases", "a line's instruction must be text")
SOURCE_TEXT_NOT_TEXT = QT_TRANSLATE_NOOP("phrases", "a line's source text must be a string")
BAD_DRAFT = QT_TRANSLATE_NOOP("phrases", "draft must be true or false")
CHARACTER_WITHOUT_NAME = QT_TRANSLATE_NOOP("phrases", "a character needs a name")
CHARACTER_NAME_EXISTS = QT_TRANSLATE_NOOP("phrases", "a character named {name} already exists")
CHARACTER_ID_TAKEN = QT_TRANSLATE_NOOP("phrases", "character id {id} already exists")
NO_CHARACTER_FIELDS = QT_TRANSLATE_NOOP("phrases", "characters have no field(s) {fields}")
EDIT_CHARACTER_NOTHING = QT_TRANSLATE_NOOP("phrases", "EditCharacter needs at least one field to change")
UNKNOWN_SETTINGS = QT_TRANSLATE_NOOP("phrases", "unknown project setting(s): {names}")
TITLE_NOT_TEXT = QT_TRANSLATE_NOOP("phrases", "the title must be text")
LINES_NOT_ADJACENT = QT_TRANSLATE_NOOP("phrases", "the lines must be next to each other in the script")
SPLIT_NEEDS_WORDS = QT_TRANSLATE_NOOP("phrases", "a line is split inside its text: both parts need words")
MERGE_NEEDS_TWO = QT_TRANSLATE_NOOP("phrases", "merging needs at least two lines")
NOTHING_TO_FIND = QT_TRANSLATE_NOOP("phrases", "there is nothing to find: type the text to replace")
MERGE_INTO_ITSELF = QT_TRANSLATE_NOOP("phrases", "a character cannot be merged into itself")
CHOOSE_LINES_TO_SPLIT = QT_TRANSLATE_NOOP("phrases", "choose the lines that go to the new character")
LINES_NOT_OF_CHARACTER = QT_TRANSLATE_NOOP("phrases", "{count} of the chosen lines are not {name}'s")

# --- why an older project cannot be brought up to date (app/project/migrations.py) --------------
OLD_LINE = QT_TRANSLATE_NOOP("phrases", "v{version} line {number}")
OLD_TIME_UNREADABLE = QT_TRANSLATE_NOOP("phrases", "{where}: cannot read time {value} (expected HH:MM:SS,mmm)")
V1_CHARACTERS_NOT_OBJECT = QT_TRANSLATE_NOOP("phrases", "v1 'characters' must be an object keyed by character name")
V1_CHARACTER_NOT_OBJECT = QT_TRANSLATE_NOOP("phrases", "v1 character {name} must be an object")
OLD_LINE_NOT_OBJECT = QT_TRANSLATE_NOOP("phrases", "v{version} line {number} must be an object")
OLD_TAKES_NOT_LIST = QT_TRANSLATE_NOOP("phrases", "v{version} line {number}: 'takes' must be a list")
OLD_TAKES_NOT_OBJECTS = QT_TRANSLATE_NOOP("phrases", "v{version} line {number}: 'takes' must be a list of objects")
OLD_KEY_NOT_OBJECT = QT_TRANSLATE_NOOP("phrases", "v{version} '{key}' must be an object")
OLD_KEY_NOT_LIST = QT_TRANSLATE_NOOP("phrases", "v{version} '{key}' must be a list")
OLD_KEY_NOT_OBJECTS = QT_TRANSLATE_NOOP("phrases", "v{version} '{key}' must be a list of objects")
NO_SCHEMA_VERSION = QT_TRANSLATE_NOOP("phrases", "project.json has no valid schema_version (found {value})")
SCHEMA_TOO_NEW = QT_TRANSLATE_NOOP("phrases", "project.json has schema {schema}, but this DubStudio reads up to {readable}; update DubStudio to open it")
MIGRATION_FAILED = QT_TRANSLATE_NOOP("phrases", "migrating schema {version} -> {next} failed: {error}")

# --- making, opening and locking a project (new_project.py, project.py, sample.py, lock.py) -----
ALREADY_A_PROJECT = QT_TRANSLATE_NOOP("phrases", "{folder} already holds a project")
FOLDER_NOT_EMPTY = QT_TRANSLATE_NOOP("phrases", "{folder} is not an empty folder; choose a new one for the project (or put the video inside it to use it where it is)")
DANGLING_LINK = QT_TRANSLATE_NOOP("phrases", "{path} is a symbolic link to {target}, which does not exist; name a real folder for the project")
FILE_NOT_FOLDER = QT_TRANSLATE_NOOP("phrases", "{path} is a file, not a folder; choose a new folder for the project")
BROKEN_NEW_MARKER = QT_TRANSLATE_NOOP("phrases", "{file} is left by an interrupted `dubstudio new` but cannot be read ({error}); remove it, or the folder, and run new again")
VOICE_GIVEN_TWICE = QT_TRANSLATE_NOOP("phrases", "two --voice options name the same character")
VOICE_FOR = QT_TRANSLATE_NOOP("phrases", "voice for {name}: {problem}")
TRANSCRIPT_PROBLEM = QT_TRANSLATE_NOOP("phrases", "transcript: {error}")
NO_LINE_WITH_ID = QT_TRANSLATE_NOOP("phrases", "no line with id {id}")
NO_LINES_WITH_IDS = QT_TRANSLATE_NOOP("phrases", "no lines with ids {ids}")
NO_SUCH_TAKE = QT_TRANSLATE_NOOP("phrases", "line {line} has no take {take}")
LINE_HAS_NO_CHARACTER = QT_TRANSLATE_NOOP("phrases", "line {order} has no character")
OPEN_ELSEWHERE = QT_TRANSLATE_NOOP("phrases", "{folder} is open in {holder}; close it there first")
LOCK_CHANGING_HANDS = QT_TRANSLATE_NOOP("phrases", "{folder}: the project lock keeps changing hands; try again")
LOCK_NOT_REGULAR = QT_TRANSLATE_NOOP("phrases", "the project lock {file} is not a regular file; remove it and try again")
LOCK_HARD_LINKED = QT_TRANSLATE_NOOP("phrases", "the project lock {file} is hard-linked to {count} other name(s), perhaps outside the project; refusing to write into it (remove it and try again)")

# --- a project's paths (fsutil.py, PathEscapeError) -----------------------------------------------
EMPTY_PATH = QT_TRANSLATE_NOOP("phrases", "Empty path {path} in project")
ABSOLUTE_PATH = QT_TRANSLATE_NOOP("phrases", "Path {path} is absolute; project paths must be relative to the project folder")
PATH_OUTSIDE = QT_TRANSLATE_NOOP("phrases", "Path {path} points outside the project folder")
PATH_RESOLVES_OUTSIDE = QT_TRANSLATE_NOOP("phrases", "Path {path} resolves outside the project folder ({target})")
NOT_INSIDE_PROJECT = QT_TRANSLATE_NOOP("phrases", "{path} is not inside the project folder {folder}")

# --- a character's clip (clips.py, ClipImportError) ------------------------------------------------
CLIP_NOT_FOUND = QT_TRANSLATE_NOOP("phrases", "clip not found: {path}")
CLIP_PROBLEM = QT_TRANSLATE_NOOP("phrases", "clip {problem}")
NOT_AUDIO = QT_TRANSLATE_NOOP("phrases", "cannot decode {file} as audio: {error}")
HOLDS_NO_AUDIO = QT_TRANSLATE_NOOP("phrases", "{file} holds no audio")
CANNOT_READ_CLIP = QT_TRANSLATE_NOOP("phrases", "cannot read clip {file}: {error}")
EMPTY_TRIM = QT_TRANSLATE_NOOP("phrases", "the trim of {name}'s clip ({start:.2f} s to {end}) is empty")

# --- transcribing, hearing the original, translating (transcription.py, translation.py) ----------
# The name a transcription gives each voice it finds (the studio passes its translation of it).
SPEAKER_N = QT_TRANSLATE_NOOP("phrases", "Speaker {number}")
# SPEAKER_N as the shipped catalogues translate it (tests/test_translations.py holds this to the .ts
# files): a name made in a studio of any language is known for a default name by code without Qt.
SPEAKER_N_TRANSLATED = ("说话人 {number}",)
LINE_UNKNOWN_CHARACTER = QT_TRANSLATE_NOOP("phrases", "line {id} names an unknown character")
TRANSCRIPTION_PROCESS_STOPPED = QT_TRANSLATE_NOOP("phrases", "the transcription's process stopped before it finished (exit status {status})")
NO_VIDEO_TO_TRANSCRIBE = QT_TRANSLATE_NOOP("phrases", "the project has no video to transcribe")
SCRIPT_NOT_EMPTY = QT_TRANSLATE_NOOP("phrases", "the project already has {count} lines; transcribing replaces them (pass --replace, or undo afterwards in the studio)")
NO_START_TO_HEAR = QT_TRANSLATE_NOOP("phrases", "line {order} has no start time in the video: give it one to hear the original there")
PROJECT_WITHOUT_VIDEO = QT_TRANSLATE_NOOP("phrases", "the project has no video")
NO_CHARACTER_FOR_AUDIO = QT_TRANSLATE_NOOP("phrases", "the line has no character to give its audio to")
NO_SPAN_IN_VIDEO = QT_TRANSLATE_NOOP("phrases", "the line has no start and end time in the video")
NOTHING_TO_TRANSLATE = QT_TRANSLATE_NOOP("phrases", "the script has no line with text to translate")
EVERY_LINE_TRANSLATED = QT_TRANSLATE_NOOP("phrases", "every line already holds a translation into {language} that a person wrote or checked (its original kept beside it), and is kept; name the lines to translate them again (Selected lines, or --lines 1-{count})")
TARGET_LANGUAGE_FIRST = QT_TRANSLATE_NOOP("phrases", "set the project's target language first (Translate)")
NOTHING_TO_SHORTEN = QT_TRANSLATE_NOOP("phrases", "the lines chosen have no text to shorten")
NOT_A_LANGUAGE = QT_TRANSLATE_NOOP("phrases", "{value} is not a language code (such as en, zh or pt-BR)")

# --- exporting a script (script_io.py) ------------------------------------------------------------
NO_EXTENSION = QT_TRANSLATE_NOOP("phrases", "a file without extension")
CANNOT_EXPORT_SCRIPT_AS = QT_TRANSLATE_NOOP("phrases", "cannot export a script as {suffix} (use {writable})")
UNKNOWN_SCRIPT_FORMAT = QT_TRANSLATE_NOOP("phrases", "unknown script format {name}; choose from {choices}")

# --- a time typed or read from a script (timecode.py's ValueError; callers add where) -------------
EMPTY_TIME = QT_TRANSLATE_NOOP("phrases", "empty time")
SIXTY_OR_MORE = QT_TRANSLATE_NOOP("phrases", "time {text} has minutes or seconds of 60 or more")
UNREADABLE_TIME = QT_TRANSLATE_NOOP("phrases", "cannot read time {text} (use seconds or HH:MM:SS,mmm)")
FRAMES_WITHOUT_VIDEO = QT_TRANSLATE_NOOP("phrases", "time {text} counts frames (HH:MM:SS:FF), and the project has no video to give their rate: add the video first, or write HH:MM:SS,mmm")
FRAME_PAST_ITS_SECOND = QT_TRANSLATE_NOOP("phrases", "time {text} counts more frames than a second of the video holds ({fps:g} a second)")
NEGATIVE_TIME = QT_TRANSLATE_NOOP("phrases", "time {text} must be a non-negative number of seconds")

# --- which line a refusal names (the ``what`` of model.validate_line) -------------------------------
A_LINE = QT_TRANSLATE_NOOP("phrases", "line")
LINE_NUMBER = QT_TRANSLATE_NOOP("phrases", "line {order}")
TRANSLATED_LINE = QT_TRANSLATE_NOOP("phrases", "translated line {number}")

# --- who holds a project's lock (lock.describe_holder: "render (pid 4242 on studio-pc, since …)") --
HOLDER = QT_TRANSLATE_NOOP("phrases", "{program} ({where})")
HOLDER_SINCE = QT_TRANSLATE_NOOP("phrases", "{program} ({where}, since {since})")
HOLDER_PROCESS = QT_TRANSLATE_NOOP("phrases", "pid {pid} on {host}")
ANOTHER_DUBSTUDIO = QT_TRANSLATE_NOOP("phrases", "another DubStudio")
UNKNOWN_HOST = QT_TRANSLATE_NOOP("phrases", "an unknown host")
