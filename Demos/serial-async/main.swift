// The 'serial-async' demo as its own program: `swift run serial-async` (the same as `opscope demo serial-async`).
import DemoLauncher

DemoLauncher.main(demo: "serial-async")
