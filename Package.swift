// swift-tools-version:6.1
// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import PackageDescription

// Warnings are errors everywhere; the language mode is Swift 6 (strict concurrency).
let strictSwift: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]
// The test targets unoptimized even in the release build the tests run on (the last -O flag wins,
// and SwiftPM puts a target's own flags after the configuration's): what they test is the
// optimized code of the modules they import, and their own code only drives it. -O made their
// compile longer for nothing (CommentBarControlTests, the largest: 27 s of CPU at -O, 17 s at
// -Onone, one build each).
let testSwift: [SwiftSetting] = strictSwift + [.unsafeFlags(["-Onone"])]

// The renderer's link (Linux): lld with packed relative relocations (DT_RELR: 12 KB instead of a
// 1.4 MB .rela.dyn the loader touches at every start), no export of every symbol (-static-stdlib
// brings -export-dynamic: 1.6 MB of .dynsym/.dynstr/.gnu.hash), and the functions `serve` runs
// placed together (linker/commentbar.order, from a callgrind run of `serve`: `make link-order`;
// names no longer found are ignored), so fewer pages of the binary become resident.
let rendererLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld",
                  "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "--no-export-dynamic",
                  "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/linker/commentbar.order",
                  "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(platforms: [.linux])),
]

let nio: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
    .product(name: "Logging", package: "swift-log"),
]

// Platforms are plug-ins: every folder of Sources/Platforms is a target `<Folder>Platform`
// over the shared plumbing, and Tests/Platforms/<Folder>Tests (if present) is its test
// target. A new platform is one folder here plus one line in ServiceRegistry.swift.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
func folders(_ path: String) -> [String] {
    let url = packageRoot.appendingPathComponent(path)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { name in
        var isDirectory: ObjCBool = false
        return !name.hasPrefix(".")
            && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }.sorted()
}
/// A platform that builds on another platform's protocol code names it here.
let platformDependencies: [String: [String]] = ["Twitch": ["IRC"]]
/// A platform that needs a package product beyond NIO and Logging names it here, so only
/// that platform links it (niconico's NDGR comment server speaks protobuf).
let platformProducts: [String: [Target.Dependency]] = [
    "Niconico": [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
]
let platforms = folders("Sources/Platforms")
let platformTargets: [Target] = platforms.map { name in
    .target(name: "\(name)Platform",
            dependencies: ["CommentBarCore", "CommentBarFeeds", "CommentBarNet", "CommentBarSupport"]
                + (platformDependencies[name] ?? []).map { .target(name: "\($0)Platform") }
                + (platformProducts[name] ?? []) + nio,
            path: "Sources/Platforms/\(name)",
            swiftSettings: strictSwift)
}
let platformTestTargets: [Target] = folders("Tests/Platforms").compactMap { folder in
    guard folder.hasSuffix("Tests"), platforms.contains(String(folder.dropLast(5))) else { return nil }
    return .testTarget(name: "\(folder.dropLast(5))PlatformTests",
                       dependencies: [.target(name: "\(folder.dropLast(5))Platform"), "CommentBarCore", "CommentBarFeeds",
                                      "CommentBarNet", "CommentBarNetTesting",
                                      .product(name: "NIOEmbedded", package: "swift-nio")],
                       path: "Tests/Platforms/\(folder)",
                       swiftSettings: testSwift)
}

let package = Package(
    name: "CommentBar",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "commentbar", targets: ["commentbar"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // No default traits: BinaryDelimitedStreams imports Foundation (ICU) for InputStream,
        // which the renderer must not link (FoundationEssentials only); niconico reads its
        // length-delimited streams itself. Traits need tools version 6.1.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
    ],
    targets: [
        // C: system libraries found with pkg-config; the pool ABI and the settings table,
        // both shared with the OBS shim.
        .systemLibrary(name: "CCairo", path: "CModules/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPangoCairo", path: "CModules/CPangoCairo", pkgConfig: "pangocairo gdk-pixbuf-2.0",
                       providers: [.apt(["libpango1.0-dev", "libgdk-pixbuf-2.0-dev"])]),
        // GLib's Unicode normalization and case folding for the chat filters (already in the
        // renderer through Pango).
        .systemLibrary(name: "CGLib", path: "CModules/CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        // SQLite's C API for the viewer memory (no Foundation, no ICU: the renderer links neither).
        .systemLibrary(name: "CSQLite", path: "CModules/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // libvorbisfile for the first-time sound's Ogg Vorbis files (CommentBarSpeech): lighter
        // than libsndfile (only libvorbis and libogg), and no Foundation, no ICU.
        .systemLibrary(name: "CVorbisFile", path: "CModules/CVorbisFile", pkgConfig: "vorbisfile",
                       providers: [.apt(["libvorbis-dev"])]),
        .target(name: "CommentBarPoolABI", path: "CModules/CommentBarPoolABI"),
        .target(name: "CommentBarSettings", path: "CModules/CommentBarSettings"),
        // The release version (from VERSION) for `commentbar --version`.
        .target(name: "CommentBarVersion", path: "CModules/CommentBarVersion"),

        // The few Linux calls Glibc's Swift module does not show (spawning, memfd, limits).
        .target(name: "CSysCalls", path: "CModules/CSysCalls"),
        // The renderer's small shared mechanisms, one of each: backoff, log rate limit, child
        // processes, the problem reporter.
        .target(name: "CommentBarSupport", dependencies: ["CSysCalls", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictSwift),
        // State, events, settings and themes (no drawing, no I/O: it opens no file and no socket).
        .target(name: "CommentBarCore", dependencies: ["CommentBarSettings", "CGLib"], swiftSettings: strictSwift),
        // Frames and frame pools, without Cairo.
        .target(name: "CommentBarFrames", swiftSettings: strictSwift),
        // The Cairo/Pango renderer.
        .target(name: "CommentBarRender",
                dependencies: ["CommentBarCore", "CommentBarSupport", "CommentBarFrames", "CCairo", "CPangoCairo"],
                swiftSettings: strictSwift),
        // The feed interface (CommentFeed, ServiceDescription) and timeline replays.
        .target(name: "CommentBarFeeds", dependencies: ["CommentBarCore", "CommentBarSupport"], swiftSettings: strictSwift),
        // Shared network plumbing: endpoints, TLS, connect-to, connections, framing, keepalive, reconnects.
        .target(name: "CommentBarNet",
                dependencies: [
                    "CommentBarCore", "CommentBarFeeds", "CommentBarSupport",
                    .product(name: "NIOHTTP1", package: "swift-nio"),
                    .product(name: "NIOWebSocket", package: "swift-nio"),
                    .product(name: "NIOSSL", package: "swift-nio-ssl"),
                    .product(name: "AsyncHTTPClient", package: "async-http-client"),
                ] + nio,
                swiftSettings: strictSwift),
        // Test support for the network (never in the renderer): an in-process `WebFetching` double
        // and a real HTTPS server on loopback with a test CA.
        .target(name: "CommentBarNetTesting",
                dependencies: ["CommentBarFeeds", "CommentBarNet", "CommentBarSupport",
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOSSL", package: "swift-nio-ssl")] + nio,
                swiftSettings: strictSwift),
        // Test support shared by the Swift test targets (never in the renderer): a captured log, a
        // temporary folder, a reserved port.
        .target(name: "CommentBarTestSupport",
                dependencies: [.product(name: "Logging", package: "swift-log"),
                               .product(name: "InMemoryLogging", package: "swift-log")],
                swiftSettings: strictSwift),
    ] + platformTargets + [
        // The one registry of services, over every platform.
        .target(name: "CommentBarServices",
                dependencies: ["CommentBarCore", "CommentBarFeeds", "CommentBarNet", .product(name: "Logging", package: "swift-log")]
                    + platforms.map { .target(name: "\($0)Platform") },
                swiftSettings: strictSwift),
        // The renderer's side of the shared-memory pool.
        .target(name: "CommentBarPool", dependencies: ["CommentBarPoolABI", "CommentBarFrames"],
                swiftSettings: strictSwift),
        // Reading the chat aloud (issue 20) and the first-time sound (issue 29): rules, queue and
        // engines; nothing of it is loaded or run while speech and the sound are off (eSpeak NG and
        // Open JTalk are child processes, started per item).
        .target(name: "CommentBarSpeech",
                dependencies: ["CommentBarCore", "CommentBarSettings", "CommentBarSupport", "CVorbisFile",
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "NIOHTTP1", package: "swift-nio")] + nio,
                swiftSettings: strictSwift),
        // The control page and event API on loopback (issue 30): SwiftNIO HTTP/1 and WebSocket,
        // with a thread of its own only while the `control` setting is on. The page's files
        // (Assets/*.html, .css, .js) are built into it as string literals by the EmbedAssets plugin,
        // the OBS locale files (the page's words, plugin/data/locale) by the EmbedLocale plugin;
        // AsyncHTTPClient is `control-url`'s client (already in the renderer through CommentBarNet).
        .target(name: "CommentBarControl",
                dependencies: ["CommentBarCore", "CommentBarNet", "CommentBarSupport", "CGLib",
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio"),
                               .product(name: "AsyncHTTPClient", package: "async-http-client")] + nio,
                exclude: ["Assets"],
                swiftSettings: strictSwift,
                plugins: ["EmbedAssets", "EmbedLocale"]),
        // The doors to the tools streamers already use (issue 39), each a module of its own with a
        // session part in CommentBarServe/Parts: Streamer.bot's and Cuebot's DoAction (HTTP, their
        // WebSocket with its password, UDP) to the streamer's own machine or network…
        .target(name: "CommentBarActions",
                dependencies: ["CommentBarCore", "CommentBarSupport", "CommentBarNet",
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio")] + nio,
                swiftSettings: strictSwift),
        // …a read-only OneComme-compatible server for OneComme's templates (its page files, under
        // Assets/, put into the binary by the EmbedAssets plugin)…
        .target(name: "CommentBarOneComme",
                dependencies: ["CommentBarCore", "CommentBarSupport", "CommentBarNet",
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio")] + nio,
                exclude: ["Assets"],
                swiftSettings: strictSwift,
                plugins: ["EmbedAssets"]),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["commentbar-embed-assets"]),
        // The OBS bundle's locale files (plugin/data/locale), for the control page's words.
        .plugin(name: "EmbedLocale", capability: .buildTool(), dependencies: ["commentbar-embed-assets"]),
        // The plugin's tool (built for the machine that builds; never in the renderer).
        .executableTarget(name: "commentbar-embed-assets", path: "Sources/CommentBarEmbedAssets", swiftSettings: strictSwift),
        // …and HTML5コメジェネ's comment.xml.
        .target(name: "CommentBarCommentXML",
                dependencies: ["CommentBarCore", "CommentBarSupport", "CGLib", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictSwift),
        // The viewer memory (issue 29): the chat log in SQLite, viewers, nicknames, 初見; its
        // writer thread is started only while `remember` is on.
        .target(name: "CommentBarMemory",
                dependencies: ["CommentBarCore", "CommentBarFeeds", "CommentBarSupport", "CSQLite",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictSwift),
        // The audience takes part (issue 48): polls over every merged stream, one vote per viewer
        // account as the memory keys viewers; no I/O of its own.
        .target(name: "CommentBarParticipation",
                dependencies: ["CommentBarCore", "CommentBarMemory", "CommentBarSupport"],
                swiftSettings: strictSwift),
        // `bench-parsers` and `bench-memory`: the platforms' parse rates and the viewer memory's
        // costs, over the entry points those targets expose (public parse functions; the memory's
        // `package` store and reader), so the product's targets carry no benchmark.
        .target(name: "CommentBarBenchmarks",
                dependencies: ["YouTubePlatform", "NiconicoPlatform", "CommentBarMemory", "CommentBarCore", "CommentBarSupport",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictSwift),
        // `serve`: stdin commands, the feed and the frame loop, driving a frame sink.
        .target(name: "CommentBarServe",
                dependencies: ["CommentBarCore", "CommentBarFeeds", "CommentBarFrames", "CommentBarRender", "CommentBarSpeech",
                               "CommentBarServices", "CommentBarNet", "CommentBarSupport", "CommentBarControl",
                               "CommentBarMemory", "CommentBarActions", "CommentBarOneComme", "CommentBarCommentXML", "CommentBarParticipation",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictSwift),
        // The overlay (issue 24): starts and feeds the helper programs of CModules/overlay, which
        // hold every display library; this target links none.
        .target(name: "CommentBarOverlay",
                dependencies: ["CommentBarCore", "CommentBarPoolABI", "CSysCalls",
                               "CommentBarSupport", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictSwift),
        .executableTarget(
            name: "commentbar",
            dependencies: [
                "CommentBarCore", "CommentBarRender", "CommentBarFeeds", "CommentBarFrames", "CommentBarServices",
                "CommentBarPool", "CommentBarPoolABI", "CommentBarServe", "CommentBarVersion", "CommentBarSpeech",
                "CommentBarOverlay", "CommentBarControl", "CommentBarMemory", "CommentBarSupport",
                "CommentBarBenchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSwift,
            linkerSettings: rendererLinkerSettings),

        .testTarget(name: "CommentBarCoreTests", dependencies: ["CommentBarCore", "CommentBarSettings"],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarRenderTests",
                    dependencies: ["CommentBarRender", "CommentBarCore", "CommentBarFeeds", "CommentBarFrames", "DemoPlatform", "CCairo",
                                   "CommentBarNetTesting", "CommentBarSupport"],
                    exclude: ["Golden", "Emotes"],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarFeedsTests", dependencies: ["CommentBarFeeds", "CommentBarCore"], swiftSettings: testSwift),
        .testTarget(name: "CommentBarNetTests",
                    dependencies: ["CommentBarNet", "CommentBarNetTesting", "CommentBarCore", "CommentBarFeeds", "CommentBarSupport",
                                   .product(name: "NIOEmbedded", package: "swift-nio"),
                                   .product(name: "InMemoryLogging", package: "swift-log")],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarServicesTests",
                    dependencies: ["CommentBarServices", "CommentBarNetTesting", "CommentBarCore", "CommentBarFeeds", "CommentBarNet"],
                    swiftSettings: testSwift),
        // Loopback fakes of the engines' servers speak HTTP through NIOHTTP1.
        .testTarget(name: "CommentBarSpeechTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarSpeech", "CommentBarCore", "CommentBarSettings", "CommentBarSupport",
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "InMemoryLogging", package: "swift-log")] + nio,
                    exclude: ["Sounds"],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarOverlayTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarOverlay", "CommentBarCore", "CommentBarPool",
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "InMemoryLogging", package: "swift-log")],
                    swiftSettings: testSwift),
        // A platform made in a test (not in Sources/Platforms) reaches everything a real one does:
        // URL detection, the rows' badge as drawn, the help in `commentbar services`.
        .testTarget(name: "AddingAPlatformTests",
                    dependencies: ["CommentBarServices", "CommentBarRender", "CommentBarFrames", "CommentBarCore", "CommentBarFeeds"],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarServeTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarServe", "CommentBarFrames", "CommentBarCore", "CommentBarSpeech",
                                   "CommentBarFeeds", "CommentBarServices", "CommentBarNet", "CommentBarRender", "CommentBarSettings",
                                   "CommentBarNetTesting", "CommentBarActions", "CommentBarMemory", "CommentBarParticipation",
                                   .product(name: "InMemoryLogging", package: "swift-log")],
                    swiftSettings: testSwift),
        // The control server on loopback, through a real HTTP client and WebSocket clients.
        .testTarget(name: "CommentBarControlTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarControl", "CommentBarCore", "CommentBarSupport", "CommentBarNet",
                                   .product(name: "NIOEmbedded", package: "swift-nio"),
                                   .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "NIOWebSocket", package: "swift-nio")] + nio,
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarParticipationTests",
                    dependencies: ["CommentBarParticipation", "CommentBarCore", "CommentBarMemory", "CommentBarTestSupport",
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarMemoryTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarMemory", "CommentBarCore", "CommentBarFeeds", "CommentBarSupport",
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "InMemoryLogging", package: "swift-log")],
                    swiftSettings: testSwift),
        // Writes comments through the memory's writer at a steady rate until killed: the
        // kill -9 test's child process (CommentBarMemoryTests).
        .executableTarget(name: "commentbar-memory-crash-helper",
                          dependencies: ["CommentBarMemory", "CommentBarCore", .product(name: "Logging", package: "swift-log")],
                          path: "Tests/MemoryCrashHelper", swiftSettings: strictSwift),
        // The doors (issue 39): rules, arguments and rates, the OneComme server on loopback through a
        // real HTTP client and WebSocket, comment.xml files.
        .testTarget(name: "CommentBarActionsTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarActions", "CommentBarCore", "CommentBarSupport",
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "NIOWebSocket", package: "swift-nio"),
                                   .product(name: "InMemoryLogging", package: "swift-log")] + nio,
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarOneCommeTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarOneComme", "CommentBarCore",
                                   .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "NIOWebSocket", package: "swift-nio"),
                                   .product(name: "InMemoryLogging", package: "swift-log")] + nio,
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarCommentXMLTests",
                    dependencies: ["CommentBarTestSupport", "CommentBarCommentXML", "CommentBarCore", "CommentBarSupport",
                                   .product(name: "InMemoryLogging", package: "swift-log")],
                    swiftSettings: testSwift),
        .testTarget(name: "CommentBarSupportTests", dependencies: ["CommentBarTestSupport", "CommentBarSupport"], swiftSettings: testSwift),
        .testTarget(name: "CommentBarFramesTests", dependencies: ["CommentBarFrames"], swiftSettings: testSwift),
        // The renderer's side of the pool against a pool made and read as the OBS shim does.
        .testTarget(name: "CommentBarPoolTests", dependencies: ["CommentBarPool", "CommentBarPoolABI", "CommentBarFrames"],
                    swiftSettings: testSwift),
        // The CLI's options (`@testable import commentbar`: the executable's own types).
        .testTarget(name: "commentbarTests",
                    dependencies: ["commentbar", "CommentBarCore", "CommentBarServices", "CommentBarMemory", "CommentBarServe",
                                   .product(name: "ArgumentParser", package: "swift-argument-parser")],
                    swiftSettings: testSwift),
    ] + platformTestTargets,
    swiftLanguageModes: [.v6]
)
