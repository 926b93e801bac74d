// The 'readiness' demo as its own program: `swift run readiness` (the same as `opscope demo readiness`).
import DemoLauncher

DemoLauncher.main(demo: "readiness")
