// The tests nginx.conf (src/emit/nginx.ts) makes of a request before any location, so that nginx
// answers as the instances would where its own answer differs: HTTP/0.9 refused, an Expect other
// than 100-continue answered 417, preconditions nginx would fail on a file handed to the
// instances; and the log of requests an instance failed, without their query strings.
import { EDGE_LOG_FILE, FAILURE_LOG_CONDITION, FAILURE_LOG_FORMAT } from './nginx-edge.ts';

/** The status a request with a precondition nginx would fail on a file (412) is handed to the instances with (one no route answers). */
export const PRECONDITION_HANDOFF = 419;

/**
 * The http-level maps and log format, and the server-level tests using them; `expectationFailed`
 * is the internal location answering the instances' 417.
 */
export function requestChecks(expectationFailed: string): { http: string; server: string } {
  const http = `  # A request an instance failed, or answered with a 5xx: one line, its path without the query
  # string (${EDGE_LOG_FILE} sends it to \`npm run edge\`).
  map "$status $upstream_status" ${FAILURE_LOG_CONDITION} {
    default 0;
    "~(^|[ ,])5[0-9][0-9]" 1;
  }
  # The request's own method and path (an error page's redirect turns them into GET and its own).
  map $request $rtp_request_method {
    default "";
    "~^(?<rtp_method>[^ ]*)" $rtp_method;
  }
  map $request_uri $rtp_request_path {
    default "";
    "~^(?<rtp_path>[^?]*)" $rtp_path;
  }
  log_format ${FAILURE_LOG_FORMAT} '$rtp_request_method $rtp_request_path answered $status (instances: $upstream_addr answered $upstream_status in $upstream_response_time s)';
  # HTTP/0.9: a request line read whole (it has a target) without a version.
  map "$server_protocol|$request_uri" $rtp_http09 {
    default 0;
    "~^\\|." 1;
  }
  map "$http_if_match$http_if_unmodified_since" $rtp_precondition {
    "" 0;
    default 1;
  }
  # An Expect other than 100-continue on HTTP/1.1, as Node reads it (the instances answer it 417).
  map "$server_protocol|$http_expect" $rtp_expectation_failed {
    default 0;
    "~*^HTTP/1\\.1\\|(.*\\W)?100-continue(\\W.*)?$" 0;
    "~^HTTP/1\\.1\\|." 1;
  }`;
  const server = `    # HTTP/0.9 (a request line without a version) would get a bare body, with no status line or
    # headers to say what it is: refused, the connection closed unanswered.
    if ($rtp_http09) {
      return 444;
    }
    # To the internal location directly (not \`return\` and error_page, whose internal redirect would
    # meet this test again).
    if ($rtp_expectation_failed) {
      rewrite ^ ${expectationFailed} last;
    }
    # Preconditions nginx would fail on a file (412): the instances read none but If-None-Match.
    if ($rtp_precondition) {
      return ${PRECONDITION_HANDOFF};
    }`;
  return { http, server };
}
