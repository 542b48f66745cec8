// swift-tools-version:6.0
import PackageDescription

// Warnings are errors everywhere; the language mode is Swift 6 (strict concurrency).
let strictSwift: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

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
    ],
    targets: [
        // C: system libraries found with pkg-config, and the pool ABI shared with the OBS shim.
        .systemLibrary(name: "CCairo", path: "CModules/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPangoCairo", path: "CModules/CPangoCairo", pkgConfig: "pangocairo gdk-pixbuf-2.0",
                       providers: [.apt(["libpango1.0-dev", "libgdk-pixbuf-2.0-dev"])]),
        .target(name: "CommentBarPoolABI", path: "CModules/CommentBarPoolABI"),

        // Swift: state and events (no drawing), the Cairo/Pango renderer, feeds, the shared-memory pool.
        .target(name: "CommentBarCore", swiftSettings: strictSwift),
        .target(name: "CommentBarRender",
                dependencies: ["CommentBarCore", "CCairo", "CPangoCairo"],
                swiftSettings: strictSwift),
        .target(name: "CommentBarFeeds", dependencies: ["CommentBarCore"], swiftSettings: strictSwift),
        .target(name: "CommentBarNetFeeds",
                dependencies: [
                    "CommentBarCore", "CommentBarFeeds",
                    .product(name: "NIOCore", package: "swift-nio"),
                    .product(name: "NIOPosix", package: "swift-nio"),
                    .product(name: "NIOHTTP1", package: "swift-nio"),
                    .product(name: "NIOWebSocket", package: "swift-nio"),
                    .product(name: "NIOSSL", package: "swift-nio-ssl"),
                    .product(name: "Logging", package: "swift-log"),
                ],
                swiftSettings: strictSwift),
        .target(name: "CommentBarPool",
                dependencies: ["CommentBarPoolABI", "CommentBarRender"],
                swiftSettings: strictSwift),
        .executableTarget(
            name: "commentbar",
            dependencies: [
                "CommentBarCore", "CommentBarRender", "CommentBarFeeds", "CommentBarNetFeeds", "CommentBarPool",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift),

        .testTarget(name: "CommentBarCoreTests", dependencies: ["CommentBarCore"], swiftSettings: strictSwift),
        .testTarget(name: "CommentBarRenderTests",
                    dependencies: ["CommentBarRender", "CommentBarFeeds", "CCairo"],
                    exclude: ["Golden"],
                    swiftSettings: strictSwift),
        .testTarget(name: "CommentBarFeedsTests", dependencies: ["CommentBarFeeds"], swiftSettings: strictSwift),
        .testTarget(name: "CommentBarNetFeedsTests",
                    dependencies: ["CommentBarNetFeeds", .product(name: "NIOEmbedded", package: "swift-nio")],
                    swiftSettings: strictSwift),
    ],
    swiftLanguageModes: [.v6]
)
