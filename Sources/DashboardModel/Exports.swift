// The model's API names the stream's types (ids, records, states, key changes): importing the
// model is enough to use them.
@_exported import OperationEvents
