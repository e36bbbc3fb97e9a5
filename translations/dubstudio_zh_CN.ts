<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DocumentSession</name>
    <message>
        <location filename="../app/ui/window/document_session.py" line="+301"/>
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
    <name>FitColumn</name>
    <message>
        <location filename="../app/ui/script/columns.py" line="+375"/>
        <source>too long +%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Too long: shorten the text or widen the slot (%1 s more needed). Fitting stops at the project&apos;s total speed-up limit, %2×.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GeneralPage</name>
    <message>
        <location filename="../app/ui/settings/dialog.py" line="+98"/>
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
        <location line="+4"/>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
</context>
<context>
    <name>LinesModel</name>
    <message>
        <location filename="../app/ui/script/columns.py" line="-176"/>
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
        <location line="+44"/>
        <source>The engine&apos;s voice cannot speak this line&apos;s language: it will not be rendered.
Render it with a backend that speaks it, or set the character&apos;s language.</source>
        <translation>引擎当前的声音说不了这句台词的语言，这句不会被渲染。
请改用能说这种语言的后端，或设置角色的语言。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../app/ui/window/main_window.py" line="+349"/>
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
        <source>Choose the folder to deliver into</source>
        <translation>选择交付文件夹</translation>
    </message>
</context>
<context>
    <name>ProjectSettingsDialog</name>
    <message>
        <location filename="../app/ui/settings/project_dialog.py" line="+92"/>
        <source>Simplified (简体)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Traditional (繁體)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The characters transcribed Chinese lines are written in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Chinese script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Faster speaking and time-stretch together never speed a take up more than this; a line that still does not fit is flagged “too long” with the seconds it needs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Total speed-up limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A line with an end time may run on into the silence after it by this much, never past the next line&apos;s start, before anything is sped up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run into the silence after a line</source>
        <translation type="unfinished"></translation>
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
    <name>RunControls</name>
    <message>
        <location filename="../app/ui/stress/controls.py" line="+161"/>
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
        <location line="+40"/>
        <source>Warm: each voice is prepared before the run, as in a studio session. Cold: every line brings a new voice, the worst case.</source>
        <translation>热：每个声音在运行前准备好，如同录音棚工作时。冷：每句台词都带来一个新声音，最坏情况。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>p95 first audio: 95 of every 100 lines start to sound within this many seconds (the slowest 5 are allowed to be later). A level passes only when it keeps this.</source>
        <translation>p95 首个音频：每 100 句中有 95 句在这么多秒内开始发声（最慢的 5 句允许更晚）。只有做到这一点，级别才算通过。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A stall: the listener runs out of audio in the middle of a line and hears a gap.</source>
        <translation>卡顿：听者在一句台词中途没有音频可听，听到一段空白。</translation>
    </message>
</context>
<context>
    <name>StressPanel</name>
    <message>
        <location filename="../app/ui/stress/panel.py" line="+364"/>
        <source>The capacity: the highest level at which it and every lower level met the objective. A level that passes above one that missed is not counted: it was a lucky sample.</source>
        <translation>容量：该级别及所有更低级别都达到目标的最高级别。在未达标级别之上通过的级别不计入：那只是侥幸的样本。</translation>
    </message>
</context>
<context>
    <name>Transcription</name>
    <message>
        <location filename="../app/ui/timeline/video_clips.py" line="+178"/>
        <source>Loading the speech models</source>
        <translation>正在加载语音模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listening to the dialogue</source>
        <translation>正在聆听对白</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Telling the voices apart</source>
        <translation>正在区分声音</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choosing each voice&apos;s clip</source>
        <translation>正在为每个声音选择片段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cutting each voice&apos;s clip into voices/</source>
        <translation>正在把每个声音的片段剪入 voices/</translation>
    </message>
</context>
<context>
    <name>TranslateDialog</name>
    <message>
        <location filename="../app/ui/script/translate_dialog.py" line="+73"/>
        <source>Translate the script</source>
        <translation>翻译台词</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Whisper translates into English only, while it transcribes the video (Project › Transcribe)</source>
        <translation>Whisper 只能在转写视频时译成英文（项目 › 转写对白）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The language the project dubs into; its characters&apos; languages follow it. Type any language code the model can write (pt-BR, vi…)</source>
        <translation>项目配音的目标语言，各角色的语言随之改变。也可输入模型能写的任何语言代码（如 pt-BR、vi…）</translation>
    </message>
    <message>
        <location line="+5"/>
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
        <location line="+2"/>
        <source>Every line</source>
        <translation>全部台词</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>leave empty to keep the key kept</source>
        <translation>留空则沿用已保存的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key is kept in {0}, never in the project or a log</source>
        <translation>密钥保存在{0}，不会写入项目或日志</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Selected lines: {0}</source>
        <translation>选中的台词：{0} 句</translation>
    </message>
    <message>
        <location line="+6"/>
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
        <location line="+4"/>
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
        <location line="+5"/>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location line="+5"/>
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
        <location filename="../app/ui/script/translation_controller.py" line="+67"/>
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
        <location line="+16"/>
        <source>Cannot shorten</source>
        <translation>无法缩短</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>{0}: no translation endpoint yet; set one in Project › Translate…</source>
        <translation>{0}：尚未设置翻译接口，请在“项目 › 翻译…”中设置</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Shortened {0} lines; {1} of {2} with a slot now fit it (Edit › Undo brings the old wording back)</source>
        <translation>已缩短 {0} 句台词；有时间段的 {2} 句中，现在有 {1} 句放得下（“编辑 › 撤销”可恢复原来的措辞）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Shortening {0} lines</source>
        <translation>正在缩短 {0} 句台词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shortening was cancelled; the lines are as they were</source>
        <translation>缩短已取消，台词保持原样</translation>
    </message>
    <message>
        <location line="+11"/>
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
        <location line="+5"/>
        <source>; {0} lines leave out a glossary term</source>
        <translation>；{0} 句台词漏用了术语表中的词</translation>
    </message>
</context>
<context>
    <name>VoicesEnginePage</name>
    <message>
        <location filename="../app/ui/engine/voices_engine_page.py" line="+350"/>
        <source>Licence: {0}</source>
        <translation>许可：{0}</translation>
    </message>
    <message>
        <location line="+299"/>
        <source>Before you use {0}</source>
        <translation>使用 {0} 之前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use this voice?</source>
        <translation>使用这个声音吗？</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../app/ui/window/welcome.py" line="+39"/>
        <source>New project from video…</source>
        <translation>从视频新建项目…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A project that dubs a video: its subtitles or its transcribed dialogue become the script</source>
        <translation>为视频配音的项目：视频的字幕或转写出的对白成为脚本</translation>
    </message>
</context>
<context>
    <name>messages</name>
    <message>
        <location filename="../app/project/messages.py" line="+20"/>
        <source>A take did not pass a check.</source>
        <translation>某个版本未通过检查。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something went wrong.</source>
        <translation>出现了问题。</translation>
    </message>
</context>
<context>
    <name>ProjectDialog</name>
    <message>
        <source>Its music and effects under the dub (the original dialogue taken out)</source>
        <translation>保留原片的音乐和音效，置于配音之下（去除原对白）</translation>
    </message>
</context>
</TS>
