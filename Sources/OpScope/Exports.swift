// `import OpScope` is all an embedding program needs: the monitor and observed queues, the event
// values, the model's report types, the graph export, the session, recordings, and the terminal
// types the API names.
@_exported import DashboardModel
@_exported import DashboardSession
@_exported import EventCoding
@_exported import GraphExport
@_exported import OperationBridge
@_exported import OperationEvents
@_exported import OpScopeRecording
@_exported import TerminalKit
