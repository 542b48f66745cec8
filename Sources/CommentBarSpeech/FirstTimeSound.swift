// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import FoundationEssentials

/// The `first_time_sound` setting (issue 29): nothing, the built-in chime, or a WAV or Ogg Vorbis
/// file the streamer picked, played as the source's own audio when a viewer's first comment ever
/// on the channel is shown. A file is read once, when the setting names it, and bounded: at most
/// `maxFileBytes` and `maxSeconds`; anything wrong with it is one line for the bar and the log.
public enum FirstTimeSound: Sendable, Equatable {
    case off
    case chime
    case file(path: String)

    /// A file larger than this is refused before it is read.
    public static let maxFileBytes = 4 << 20
    /// A longer sound is refused: a greeting, not a song.
    public static let maxSeconds = 10

    /// `off` (or empty), `chime`, or a file's path.
    public init(setting: String) {
        switch setting.trimmingWhitespace() {
        case "", "off": self = .off
        case "chime": self = .chime
        case let path: self = .file(path: path)
        }
    }

    /// The sound to play, made (the chime, at `rate`) or read and decoded (a file): nil when off.
    public func load(rate: Int) throws(SpeechError) -> SpeechAudio? {
        switch self {
        case .off:
            return nil
        case .chime:
            return Chime.make(rate: rate)
        case .file(let path):
            do {
                return try Self.read(path)
            } catch {
                throw SpeechError("first-time sound: \(error.description)")
            }
        }
    }

    private static func read(_ path: String) throws(SpeechError) -> SpeechAudio {
        do {
            try RegularFile.check(path, maxBytes: maxFileBytes)
        } catch {
            throw SpeechError(error.description)
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw SpeechError("\(path): cannot be read")
        }
        // The file may have grown since it was checked.
        guard bytes.count <= maxFileBytes else { throw SpeechError("\(path): larger than \(maxFileBytes >> 20) MiB") }
        let audio: SpeechAudio
        do throws(SpeechError) {
            if OggVorbisFile.sniff(bytes) {
                audio = try OggVorbisFile.decode(bytes, maxSeconds: maxSeconds)
            } else if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) {
                audio = try WAVFile.decode(bytes)
            } else {
                throw SpeechError("not a WAV or Ogg Vorbis file")
            }
        } catch {
            throw SpeechError("\(path): \(error.description)")
        }
        guard audio.seconds <= Double(maxSeconds) else {
            throw SpeechError("\(path): \(OggVorbisFile.tooLong(Int(audio.seconds.rounded(.up)), maxSeconds))")
        }
        guard !audio.samples.isEmpty else { throw SpeechError("\(path): no audio in it") }
        return audio
    }

    /// What the log says when the sound is ready.
    public func describe(_ audio: SpeechAudio?) -> String {
        switch self {
        case .off: return "first-time sound: off"
        case .chime: return "first-time sound: the chime"
        case .file(let path):
            let tenths = Int(((audio?.seconds ?? 0) * 10).rounded())
            return "first-time sound: \(path) (\(tenths / 10).\(tenths % 10) s)"
        }
    }
}
