/// Warns, in a debug build only, that the figures mean little and how to get real ones:
/// `command` is the build or run to use instead, `figures` what the run reports.
func warnIfDebugBuild(use command: String, for figures: String = "numbers") {
    #if DEBUG
    print("warning: debug build; use `\(command)` for real \(figures)")
    #endif
}
