import ArgumentParser
struct Render: AsyncParsableCommand { func run() async throws {} }
