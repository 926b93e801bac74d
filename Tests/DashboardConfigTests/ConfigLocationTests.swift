import DashboardConfig
import Foundation
import Testing

/// Where the config file is, from an environment the test makes (never the machine's own HOME),
/// and what a missing or unreadable file does.
@Suite("Config file: where it is, and reading it")
struct ConfigLocationTests {
    /// A new empty directory.
    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-config-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("XDG_CONFIG_HOME when it is absolute, else HOME's .config, else none")
    func standardPath() {
        let both = ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/a"]
        #expect(ConfigFile.standardPath(environment: both) == "/xdg/opscope/config.toml")
        #expect(ConfigFile.standardPath(environment: ["XDG_CONFIG_HOME": "/xdg/", "HOME": "/home/a"]) == "/xdg/opscope/config.toml")
        #expect(ConfigFile.standardPath(environment: ["HOME": "/home/a"]) == "/home/a/.config/opscope/config.toml")
        #expect(ConfigFile.standardPath(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/a"]) == "/home/a/.config/opscope/config.toml",
                "an empty XDG_CONFIG_HOME is unset")
        #expect(ConfigFile.standardPath(environment: ["XDG_CONFIG_HOME": "relative/dir", "HOME": "/home/a"])
                == "/home/a/.config/opscope/config.toml", "a relative XDG_CONFIG_HOME is ignored, as the XDG rules say")
        #expect(ConfigFile.standardPath(environment: ["XDG_CONFIG_HOME": "/xdg"]) == "/xdg/opscope/config.toml")
        #expect(ConfigFile.standardPath(environment: [:]) == nil)
        #expect(ConfigFile.standardPath(environment: ["HOME": ""]) == nil)
    }

    @Test("the standard file is read from XDG_CONFIG_HOME; a missing one is no error")
    func standardFile() throws {
        let base = try directory()
        let environment = ["XDG_CONFIG_HOME": base, "HOME": "/nonexistent"]
        #expect(try ConfigFile.load(.standard, environment: environment) == nil, "no file yet: nothing, silently")
        try FileManager.default.createDirectory(atPath: base + "/opscope", withIntermediateDirectories: true)
        try "view = \"timeline\"\n".write(toFile: base + "/opscope/config.toml", atomically: true, encoding: .utf8)
        let file = try #require(try ConfigFile.load(.standard, environment: environment))
        #expect(file.path == base + "/opscope/config.toml")
        #expect(file.settings.view == .timeline)
        #expect(try ConfigFile.load(.none, environment: environment) == nil, "--no-config reads nothing")
        // HOME's file is read when XDG_CONFIG_HOME is not set.
        let home = try directory()
        try FileManager.default.createDirectory(atPath: home + "/.config/opscope", withIntermediateDirectories: true)
        try "fps = 9\n".write(toFile: home + "/.config/opscope/config.toml", atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(.standard, environment: ["HOME": home])?.settings.fps == 9)
    }

    @Test("--config FILE must exist and be readable: the error names it and says why")
    func namedFile() throws {
        let base = try directory()
        let missing = base + "/none.toml"
        #expect(throws: ConfigError(path: missing, "cannot read it: No such file or directory")) {
            try ConfigFile.load(.file(missing), environment: [:])
        }
        #expect(throws: ConfigError(path: base, "cannot read it: Is a directory")) {
            try ConfigFile.load(.file(base), environment: [:])
        }
        let binary = base + "/binary.toml"
        try Data([0x66, 0x70, 0x73, 0x20, 0x3d, 0x20, 0xff, 0xfe]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: ConfigError(path: binary, "not UTF-8 text")) { try ConfigFile.load(.file(binary), environment: [:]) }
        let good = base + "/good.toml"
        try "sort = \"wait\"\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(.file(good), environment: [:])?.settings.sort == .wait)
    }

    @Test("a standard file that exists but is wrong is an error, not ignored")
    func brokenStandardFile() throws {
        let base = try directory()
        try FileManager.default.createDirectory(atPath: base + "/opscope", withIntermediateDirectories: true)
        try "fps = \"fast\"\n".write(toFile: base + "/opscope/config.toml", atomically: true, encoding: .utf8)
        #expect(throws: ConfigError(path: base + "/opscope/config.toml", line: 1,
                                    #"fps = "fast": expected an integer from 1 to 120, got a string"#)) {
            try ConfigFile.load(.standard, environment: ["XDG_CONFIG_HOME": base])
        }
    }
}
