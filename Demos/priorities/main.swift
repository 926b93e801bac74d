// The 'priorities' demo as its own program: `swift run priorities` (the same as `opscope demo priorities`).
import DemoLauncher

DemoLauncher.main(demo: "priorities")
