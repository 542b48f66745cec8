// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import PackagePlugin

/// The build step that puts a target's page files into the binary: every file under the target's
/// `Assets/` folder (real .js, .css, .html files, which linters and `node --check` read) becomes an
/// entry of `EmbeddedAssets.files` in a generated Swift file, by the `commentbar-embed-assets` tool.
/// The renderer reads no file of its own at run time, and links no Foundation `Bundle`.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let assets = module.directoryURL.appending(path: "Assets")
        let files = Self.files(under: assets)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [
            .buildCommand(displayName: "Embedding \(files.count) page files of \(target.name)",
                          executable: try context.tool(named: "commentbar-embed-assets").url,
                          arguments: [assets.path(percentEncoded: false), output.path(percentEncoded: false)],
                          inputFiles: files, outputFiles: [output]),
        ]
    }

    /// Every regular file below `folder`, sorted.
    static func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }
}
