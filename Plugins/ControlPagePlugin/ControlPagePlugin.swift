// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import PackagePlugin

/// Turns the control page's files (`Page/*.html`, `.css`, `.js` of the target) into one Swift
/// file of string literals (`ControlPageFiles`), rebuilt whenever one of them changes.
@main
struct ControlPagePlugin: BuildToolPlugin {
    static let kinds: Set<String> = ["html", "css", "js"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let page = target.directoryURL.appending(path: "Page")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: page.path)
            .filter { Self.kinds.contains($0.split(separator: ".").last.map(String.init) ?? "") }
            .sorted()
            .map { page.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ControlPageFiles.swift")
        return [.buildCommand(displayName: "Embedding the control page (\(inputs.count) files)",
                              executable: try context.tool(named: "ControlPageEmbedder").url,
                              arguments: [output.path] + inputs.map(\.path),
                              inputFiles: inputs, outputFiles: [output])]
    }
}
