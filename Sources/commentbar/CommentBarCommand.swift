// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarVersion

@main
struct CommentBarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commentbar",
        abstract: "Renders a live stream's comment bar: comments, gifts, clock, viewers, mic and avatar.",
        // COMMENTBAR_VERSION comes from the top-level VERSION file (CModules/CommentBarVersion).
        version: COMMENTBAR_VERSION,
        subcommands: [Render.self, Bench.self, BenchParsers.self, Serve.self, Tail.self, Services.self, Overlay.self, Speak.self,
                      ControlURLCommand.self, Log.self, ViewersCommand.self, PollCommand.self, GiveawayCommand.self,
                      BenchMemory.self, ThemeCommand.self]
    )
}
