#!/usr/bin/env python3
"""A stand-in OpenTelemetry collector for OpScope's tests: decodes what is sent with the
OpenTelemetry project's own protobuf definitions (PyPI opentelemetry-proto).

  otlp-receiver.py serve DIR   listens on 127.0.0.1 (a free port, written to DIR/port) for
                               OTLP/HTTP protobuf POSTs to /v1/traces and /v1/metrics; each span
                               is one JSON line in DIR/spans.jsonl (its resource's attributes
                               beside it), each metric's name one line in DIR/metrics.jsonl.
  otlp-receiver.py sink DIR    the same listener, answering every POST without decoding it (for
                               benchmarks: the collector's cost stays out of the program's).
  otlp-receiver.py check FILE  parses an OTLP JSON file (one ExportTraceServiceRequest per line)
                               strictly, as a collector's otlpjsonfile receiver would, and prints
                               its spans as JSON lines in the same form.
"""
import gzip
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2


def value(any_value):
    """An attribute's value with its OTLP kind beside it ({"t": "int", "v": 3}), so that a
    reader in another language does not have to guess a boolean from a number."""
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return {"t": "array", "v": [value(v)["v"] for v in any_value.array_value.values]}
    if kind is None:
        return {"t": "empty", "v": None}
    return {"t": kind.replace("_value", ""), "v": getattr(any_value, kind)}


def attributes(pairs):
    return {pair.key: value(pair.value) for pair in pairs}


def span_lines(request):
    for resource_spans in request.resource_spans:
        resource = attributes(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                yield json.dumps({
                    "resource": resource,
                    "scope": scope_spans.scope.name,
                    "traceId": span.trace_id.hex(),
                    "spanId": span.span_id.hex(),
                    "parentSpanId": span.parent_span_id.hex(),
                    "name": span.name,
                    "kind": span.kind,
                    "start": span.start_time_unix_nano,
                    "end": span.end_time_unix_nano,
                    "attributes": attributes(span.attributes),
                    "events": [{"name": e.name, "time": e.time_unix_nano, "attributes": attributes(e.attributes)}
                               for e in span.events],
                    "links": [{"traceId": link.trace_id.hex(), "spanId": link.span_id.hex()} for link in span.links],
                    "status": {"code": span.status.code, "message": span.status.message},
                }, sort_keys=True)


class Receiver(BaseHTTPRequestHandler):
    directory = "."
    sink = False

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.sink:
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if self.path == "/v1/traces":
            request = trace_service_pb2.ExportTraceServiceRequest()
            request.ParseFromString(body)
            self.append("spans.jsonl", list(span_lines(request)))
            answer = trace_service_pb2.ExportTraceServiceResponse()
        elif self.path == "/v1/metrics":
            request = metrics_service_pb2.ExportMetricsServiceRequest()
            request.ParseFromString(body)
            names = [json.dumps({"name": m.name}) for rm in request.resource_metrics for sm in rm.scope_metrics for m in sm.metrics]
            self.append("metrics.jsonl", names)
            answer = metrics_service_pb2.ExportMetricsServiceResponse()
        else:
            self.send_error(404)
            return
        payload = answer.SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def append(self, name, lines):
        # Appended whole, then renamed into place, so that a reader never sees half a batch.
        path = os.path.join(self.directory, name)
        with open(path + ".part", "a") as part:
            for line in lines:
                part.write(line + "\n")
        with open(path + ".part") as part, open(path + ".tmp", "w") as tmp:
            tmp.write(part.read())
        os.replace(path + ".tmp", path)

    def log_message(self, *args):
        pass


def serve(directory, sink=False):
    Receiver.directory = directory
    Receiver.sink = sink
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    with open(os.path.join(directory, "port.tmp"), "w") as port:
        port.write(str(server.server_address[1]))
    os.replace(os.path.join(directory, "port.tmp"), os.path.join(directory, "port"))
    server.serve_forever()


def check(path):
    with open(path) as file:
        for number, line in enumerate(file, 1):
            if not line.strip():
                continue
            request = trace_service_pb2.ExportTraceServiceRequest()
            try:
                json_format.Parse(line, request)
            except json_format.ParseError as error:
                sys.exit(f"{path}:{number}: not an ExportTraceServiceRequest: {error}")
            for span in span_lines(request):
                print(span)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("serve", "sink", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        serve(sys.argv[2], sink=sys.argv[1] == "sink")
