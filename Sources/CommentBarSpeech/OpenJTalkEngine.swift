// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Glibc

/// Open JTalk: Debian's `open_jtalk` run as a child process (no shell) with the naist-jdic
/// dictionary and the HTS voice file `speech_voice`, writing a WAV into a private temporary
/// folder that is read back and removed.
struct OpenJTalkEngine: SpeechEngine {
    var name: String { "openjtalk" }
    var program = "/usr/bin/open_jtalk"
    var dictionary = "/var/lib/mecab/dic/open-jtalk/naist-jdic"
    /// A child that takes longer is killed (a 1,000-character line takes about 1 s here).
    static let timeoutSeconds = 20
    private static let queue = DispatchQueue(label: "commentbar.openjtalk")

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        try checkVoice(options.voice)
        guard access(program, X_OK) == 0 else {
            throw SpeechError("Open JTalk is not installed (open-jtalk: \(program))")
        }
        guard access(dictionary, R_OK) == 0 else {
            throw SpeechError("Open JTalk's dictionary is missing (open-jtalk-mecab-naist-jdic: \(dictionary))")
        }
        let job = (text: text, options: options)
        let result: Result<SpeechAudio, SpeechError> = await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: self.run(job.text, job.options)) }
        }
        return try result.get()
    }

    /// An HTS voice is a regular file that starts with its `[GLOBAL]` section.
    func checkVoice(_ path: String) throws(SpeechError) {
        guard !path.isEmpty else { throw SpeechError("Open JTalk needs a voice: choose an .htsvoice file") }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SpeechError("voice file not found: \(path.suffix(120))")
        }
        guard let file = fopen(path, "rb") else { throw SpeechError("voice file cannot be read: \(path.suffix(120))") }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 8)
        let count = fread(&head, 1, head.count, file)
        guard count == 8, String(decoding: head, as: UTF8.self) == "[GLOBAL]" else {
            throw SpeechError("not an HTS voice file: \(path.suffix(120))")
        }
    }

    private func run(_ text: String, _ options: VoiceOptions) -> Result<SpeechAudio, SpeechError> {
        var template = Array("\(Self.temporaryRoot())/commentbar-speech-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return .failure(SpeechError("no temporary folder for Open JTalk")) }
        let folder = String(cString: made)
        let input = folder + "/in.txt", output = folder + "/out.wav"
        defer {
            unlink(input)
            unlink(output)
            rmdir(folder)
        }
        do {
            try ChildProcess.write(Array(text.utf8), to: input)
        } catch {
            return .failure(error)
        }
        let speed = String(Double(options.rate) / 100)
        let arguments = [program, "-x", dictionary, "-m", options.voice, "-r", speed, "-ow", output, input]
        switch ChildProcess.run(arguments, timeoutSeconds: Self.timeoutSeconds) {
        case .failure(let error): return .failure(error)
        case .success(let status) where status != 0:
            return .failure(SpeechError("Open JTalk failed (exit \(status)) with voice \(options.voice.suffix(80))"))
        case .success:
            break
        }
        do {
            return .success(try WAVFile.decode(try ChildProcess.read(output, limit: WAVFile.maxBytes)))
        } catch {
            return .failure(SpeechError("Open JTalk: \(error.description)"))
        }
    }

    static func temporaryRoot() -> String {
        if let dir = getenv("TMPDIR"), dir.pointee != 0 { return String(cString: dir) }
        return "/tmp"
    }
}

/// A program run without a shell, its output discarded, killed after a time limit.
enum ChildProcess {
    static func run(_ arguments: [String], timeoutSeconds: Int) -> Result<Int32, SpeechError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else {
            return .failure(SpeechError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))"))
        }
        var status: Int32 = 0
        for _ in 0..<(timeoutSeconds * 100) {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return .success(exitCode(status)) }
            if done < 0 && errno != EINTR { return .failure(SpeechError("waiting for \(arguments[0]) failed")) }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .failure(SpeechError("\(arguments[0]) took more than \(timeoutSeconds) s: stopped"))
    }

    private static func exitCode(_ status: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS: signalled children report 128 + the signal.
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    static func write(_ bytes: [UInt8], to path: String) throws(SpeechError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SpeechError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw SpeechError("cannot write \(path)") }
            written += result
        }
    }

    static func read(_ path: String, limit: Int) throws(SpeechError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SpeechError("no output file") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw SpeechError("cannot read the output file") }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw SpeechError("output larger than \(limit) bytes") }
        }
    }
}
