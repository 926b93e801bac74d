import EventCoding
import Foundation
import Testing

@Suite struct WallClockTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000000000Z"),
        (-1, "1969-12-31T23:59:59.999999999Z"),
        (951_782_400_000_000_000, "2000-02-29T00:00:00.000000000Z"),
        (1_740_832_496_123_456_789, "2025-03-01T12:34:56.123456789Z"),
        (Int64.max, "2262-04-11T23:47:16.854775807Z"),
        (Int64.min, "1677-09-21T00:12:43.145224192Z"),
    ])
    func formatsAndParsesKnownMoments(nanoseconds: Int64, text: String) {
        let time = WallClockTime(nanosecondsSince1970: nanoseconds)
        #expect(time.description == text)
        #expect(WallClockTime(iso8601: text) == time)
    }

    @Test func agreesWithFoundationAndRoundTrips() {
        let seed = SeededGenerator.seed(default: 0x7133)
        var random = SeededGenerator(seed: seed)
        let formatter = ISO8601DateFormatter()
        for _ in 0 ..< 2000 {
            let nanoseconds = Int64.random(in: Int64.min ... Int64.max, using: &random)
            let time = WallClockTime(nanosecondsSince1970: nanoseconds)
            #expect(WallClockTime(iso8601: time.description) == time, "seed \(seed): \(nanoseconds)")
            // Foundation agrees to the second (its formatter stops there).
            let seconds = Int64((Double(nanoseconds) / 1e9).rounded(.down))
            let foundation = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(time.description.prefix(19) == foundation.prefix(19), "seed \(seed): \(nanoseconds)")
        }
    }

    @Test func fewerFractionDigitsAndNoneAreRead() {
        #expect(WallClockTime(iso8601: "2025-03-01T12:34:56Z")?.nanosecondsSince1970 == 1_740_832_496_000_000_000)
        #expect(WallClockTime(iso8601: "2025-03-01T12:34:56.5Z")?.nanosecondsSince1970 == 1_740_832_496_500_000_000)
    }

    @Test(arguments: [
        "", "2025-03-01", "2025-03-01T12:34:56", "2025-03-01T12:34:56+01:00", "2025-13-01T00:00:00Z",
        "2025-02-29T00:00:00Z", "2025-03-01T24:00:00Z", "2025-03-01T12:60:00Z", "2025-03-01T12:34:60Z",
        "2025-03-01T12:34:56.Z", "2025-03-01T12:34:56.1234567890Z", "9999-01-01T00:00:00Z", "1000-01-01T00:00:00Z",
        "2025-03-01 12:34:56Z", "2O25-03-01T12:34:56Z", "2025-03-01T12:34:56,5Z",
    ])
    func malformedTimesAreRefused(text: String) {
        #expect(WallClockTime(iso8601: text) == nil)
    }

    @Test func headerMapsMonitorTimeToWallClock() {
        let header = StreamHeader(program: "p", processID: 1, startedAt: WallClockTime(nanosecondsSince1970: 5_000),
                                  startMonitorTime: 1_000)
        #expect(header.wallClock(atMonitorTime: 3_500).nanosecondsSince1970 == 7_500)
        #expect(header.wallClock(atMonitorTime: 0).nanosecondsSince1970 == 4_000)
        #expect(header.wallClock(atMonitorTime: .max).nanosecondsSince1970 == .max)
        let late = StreamHeader(program: "p", processID: 1, startedAt: WallClockTime(nanosecondsSince1970: .min + 10),
                                startMonitorTime: .max)
        #expect(late.wallClock(atMonitorTime: 0).nanosecondsSince1970 == .min)
    }

    @Test func aVersionBelowOneIsACorruptHeader() {
        let text = #"{"kind":"header","format":"opscope-events","version":0,"program":"p","processID":1,"#
            + #""startedAt":"2025-03-01T12:34:56Z","startMonitorTime":0}"#
        #expect(throws: LineDecodingError(.corruptHeader("\"version\" 0 is not a format version"))) {
            try StreamLine(decoding: text.bytes)
        }
    }
}
