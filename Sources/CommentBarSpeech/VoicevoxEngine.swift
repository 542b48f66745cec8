// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import CommentBarSupport
import FoundationEssentials
import NIOCore
import NIOHTTP1
import Synchronization

/// A VOICEVOX-compatible engine's HTTP API at `speech_server` (usually 127.0.0.1:50021):
/// `POST /audio_query?text=…&speaker=N` gives the query, `POST /synthesis?speaker=N` with that
/// query as the body (its `speedScale` set from `speech_rate`) gives a WAV. No redirect is
/// followed: nothing but the typed address. One deadline covers the whole item, bodies included;
/// an answer larger than `maxAnswerBytes` (said by its Content-Length, or seen while it streams)
/// or longer than `WAVFile.maxSeconds` is refused before a sample of it is decoded.
struct VoicevoxEngine: SpeechEngine {
    var name: String { "voicevox" }
    let server: String
    static let defaultPort = 50021
    /// A stalled or dripping engine costs one item at most this long; then reading goes on.
    var timeLimit = Duration.seconds(5)
    /// The query is JSON of a few KiB per sentence.
    static let maxQueryBytes = 2 << 20
    /// VOICEVOX answers 24 kHz mono unless asked otherwise: 60 s of 48 kHz mono (5.5 MiB) is room.
    static let maxAnswerBytes = WAVFile.bytesFor(maxSecondsAt: 48000)

    /// The client's own timeouts are backstops only, later than any item's deadline: two
    /// deadlines of one length would race and say one stall in two ways.
    static let backstop = TimeAmount.seconds(30)
    static let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                   configuration: .init(redirectConfiguration: .disallow,
                                                        timeout: .init(connect: .seconds(3), read: backstop)))

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        let text = inputBound.bounded(text)
        let address = try SpeechServer.parse(server, defaultPort: Self.defaultPort)
        let outcome = await TimeLimit.run(timeLimit) { () async -> Result<SpeechAudio, SpeechError> in
            do throws(SpeechError) {
                return .success(try await synthesize(text, at: address, options: options))
            } catch {
                return .failure(error)
            }
        }
        guard let outcome else {
            throw SpeechError("VOICEVOX at \(address.authority) took more than \(timeLimit.components.seconds) s: skipped")
        }
        return try outcome.get()
    }

    private func synthesize(_ text: String, at address: SpeechServer, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio
    {
        let speaker = Int(options.voice.trimmingTrailingAndLeadingSpaces()) ?? 1
        let base = "http://\(address.authority)"
        var query = try VoicevoxAudioQuery(
            await post("\(base)/audio_query?text=\(Self.percentEncoded(text))&speaker=\(speaker)",
                       body: nil, limit: Self.maxQueryBytes))
        query.setRate(percent: options.rate)
        let wav = try await post("\(base)/synthesis?speaker=\(speaker)", body: query.encoded(), limit: Self.maxAnswerBytes)
        do {
            return try WAVFile.decode(wav, overlong: .refuse)
        } catch {
            throw SpeechError("VOICEVOX at \(address.authority): \(error.description)")
        }
    }

    private func post(_ url: String, body: [UInt8]?, limit: Int) async throws(SpeechError) -> [UInt8] {
        try await send(url, method: .POST, body: body, limit: limit)
    }

    private func send(_ url: String, method: HTTPMethod, body: [UInt8]?, limit: Int) async throws(SpeechError) -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let path = url.split(separator: "?").first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        let tooLarge = SpeechError("VOICEVOX /\(path) answered more than \(limit >> 20) MiB: refused")
        do {
            let response = try await Self.client.execute(request, timeout: Self.backstop)
            guard response.status == .ok else {
                throw SpeechError("VOICEVOX /\(path) answered \(response.status.code)")
            }
            // Said too large up front: refused before a byte of the body is read.
            if let length = response.headers.first(name: "Content-Length").flatMap({ Int($0) }), length > limit {
                throw tooLarge
            }
            let buffer = try await response.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch let error as SpeechError {
            throw error
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            throw SpeechError("VOICEVOX /\(path) failed: \(error)")
        }
    }

    /// The engine's voices (every style of every speaker, `GET /speakers`), asked once per server
    /// and kept: a viewer keeps their voice. Nil: the engine did not say (then everyone is read in
    /// the source's voice, and it is asked again a minute later).
    static let speakerLists = SpeakerLists()

    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions {
        guard let address = try? SpeechServer.parse(server, defaultPort: Self.defaultPort) else { return options }
        let ids = await Self.speakerLists.ids(at: address.authority) {
            await TimeLimit.run(timeLimit) { () async -> [Int]? in
                guard let body = try? await send("http://\(address.authority)/speakers", method: .GET, body: nil,
                                                 limit: Self.maxQueryBytes) else { return nil }
                return VoicevoxSpeakers.styleIDs(body)
            } ?? nil
        }
        guard let ids, !ids.isEmpty else { return options }
        var options = options
        options.voice = String(Self.choose(ids, pick))
        return options
    }

    /// RFC 3986 unreserved characters stay; every other UTF-8 byte is %XX.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }
}

/// What `GET /speakers` answers: `[{"name": …, "styles": [{"name": …, "id": N}, …]}, …]`
/// (VOICEVOX engine's API; AivisSpeech and other work-alikes answer the same).
enum VoicevoxSpeakers {
    private struct Speaker: Decodable {
        struct Style: Decodable { var id: Int }
        var styles: [Style]
    }

    /// Every style id, in the engine's order, at most 512 (nil: not that shape).
    static func styleIDs(_ body: [UInt8]) -> [Int]? {
        guard let speakers = try? JSONDecoder().decode([Speaker].self, from: Data(body)) else { return nil }
        return Array(speakers.flatMap { $0.styles.map(\.id) }.prefix(512))
    }
}

/// The speaker lists of the engines asked so far, by address; a failed ask is tried again after
/// a minute, never more often.
final class SpeakerLists: Sendable {
    private struct Entry {
        var ids: [Int]?
        var asked: ContinuousClock.Instant
    }
    private let entries = Mutex<[String: Entry]>([:])
    static let retry = Duration.seconds(60)

    func ids(at authority: String, ask: () async -> [Int]?) async -> [Int]? {
        if let entry = entries.withLock({ $0[authority] }),
           entry.ids != nil || ContinuousClock.now - entry.asked < Self.retry {
            return entry.ids
        }
        let ids = await ask()
        entries.withLock { $0[authority] = Entry(ids: ids, asked: .now) }
        return ids
    }
}
