// The 'stuck' demo as its own program: `swift run stuck` (the same as `opscope demo stuck`).
import DemoLauncher

DemoLauncher.main(demo: "stuck")
