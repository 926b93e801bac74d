// The 'cancellation' demo as its own program: `swift run cancellation` (the same as `opscope demo cancellation`).
import DemoLauncher

DemoLauncher.main(demo: "cancellation")
