// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// A VOICEVOX-compatible engine's HTTP API at `speech_server` (usually 127.0.0.1:50021):
/// `POST /audio_query?text=…&speaker=N` gives the query, `POST /synthesis?speaker=N` with that
/// query as the body (its `speedScale` set from `speech_rate`) gives a WAV. No redirect is followed: nothing but the typed address.
struct VoicevoxEngine: SpeechEngine {
    var name: String { "voicevox" }
    let server: String
    static let defaultPort = 50021
    /// A stalled engine costs one item at most this long; then reading goes on.
    static let timeout = TimeAmount.seconds(5)
    static let maxQueryBytes = 4 << 20

    static let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                   configuration: .init(redirectConfiguration: .disallow,
                                                        timeout: .init(connect: .seconds(3), read: .seconds(5))))

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        let address = try SpeechServer.parse(server, defaultPort: Self.defaultPort)
        let speaker = Int(options.voice.trimmingTrailingAndLeadingSpaces()) ?? 1
        let base = "http://\(address.authority)"
        var query = try VoicevoxAudioQuery(
            await post("\(base)/audio_query?text=\(Self.percentEncoded(text))&speaker=\(speaker)",
                       body: nil, limit: Self.maxQueryBytes))
        query.setRate(percent: options.rate)
        let wav = try await post("\(base)/synthesis?speaker=\(speaker)", body: query.encoded(), limit: WAVFile.maxBytes)
        do {
            return try WAVFile.decode(wav)
        } catch {
            throw SpeechError("VOICEVOX at \(address.authority): \(error.description)")
        }
    }

    private func post(_ url: String, body: [UInt8]?, limit: Int) async throws(SpeechError) -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let path = url.split(separator: "?").first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        do {
            let response = try await Self.client.execute(request, timeout: Self.timeout)
            guard response.status == .ok else {
                throw SpeechError("VOICEVOX /\(path) answered \(response.status.code)")
            }
            let buffer = try await response.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch let error as SpeechError {
            throw error
        } catch {
            throw SpeechError("VOICEVOX /\(path) failed: \(error)")
        }
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
