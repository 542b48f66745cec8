// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import PackagePlugin

/// The build step that puts the OBS bundle's locale files (`plugin/data/locale/<lang>.ini`, the
/// one file per language a translator edits: OBS's properties, the dock's and the control page's
/// words) into a target as `EmbeddedLocale.files` ("ja-JP.ini": its text), through the same tool
/// as EmbedAssets. The renderer then serves the page's words from the files OBS reads, with no
/// copy of them to keep and no file to find at run time.
@main
struct EmbedLocale: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let locale = context.package.directoryURL.appending(path: "plugin/data/locale")
        // The folder holds only the locale files, one level: the tool embeds every file in it.
        let files = try FileManager.default.contentsOfDirectory(at: locale, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ini" }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedLocale.swift")
        return [
            .buildCommand(displayName: "Embedding \(files.count) locale files into \(target.name)",
                          executable: try context.tool(named: "commentbar-embed-assets").url,
                          arguments: [locale.path(percentEncoded: false), output.path(percentEncoded: false), "EmbeddedLocale"],
                          inputFiles: files, outputFiles: [output]),
        ]
    }
}
