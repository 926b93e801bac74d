// The 'pipeline' demo as its own program: `swift run pipeline` (the same as `opscope demo pipeline`).
import DemoLauncher

DemoLauncher.main(demo: "pipeline")
