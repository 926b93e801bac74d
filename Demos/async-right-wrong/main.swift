// The 'async-right-wrong' demo as its own program: `swift run async-right-wrong` (the same as `opscope demo async-right-wrong`).
import DemoLauncher

DemoLauncher.main(demo: "async-right-wrong")
