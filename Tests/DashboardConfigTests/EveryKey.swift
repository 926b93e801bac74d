/// A config file that sets every key, each to something other than its default.
enum EveryKey {
    static let text = """
        view = "stuck"
        sort = "wait"
        sort_descending = true
        hide_finished = true
        narration = true
        color = false
        ascii = true
        mouse = false
        fps = 10
        """
}
