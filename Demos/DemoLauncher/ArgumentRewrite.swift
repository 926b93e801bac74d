/// Option words rewritten before ArgumentParser reads them (it cannot take a negative number as
/// a value, nor an option whose value may be left out). Nothing after `--` is touched.
enum ArgumentRewrite {
    /// What one word becomes: `word`, and whether it took the next word into itself.
    struct Replacement {
        var word: String
        var consumesNext: Bool
    }

    /// `arguments` with each word for which `rewrite(word, nextWord)` gives a replacement
    /// replaced by it.
    static func apply(_ arguments: [String], _ rewrite: (String, String?) -> Replacement?) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            let next: String? = index + 1 < arguments.count ? arguments[index + 1] : nil
            if let replacement = rewrite(argument, next) {
                result.append(replacement.word)
                index += replacement.consumesNext ? 2 : 1
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }
}
