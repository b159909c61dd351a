//! An incremental Server-Sent Events parser with byte bounds.
//!
//! Implements the event-stream interpretation of the WHATWG HTML standard
//! (§9.2.6): lines end in CRLF, LF or CR; `data` lines accumulate; a blank
//! line dispatches. Unlike a general-purpose parser it refuses a line or an
//! event's data longer than the per-message bound, because a hostile server
//! can otherwise send one endless line and make us buffer it.

use std::collections::VecDeque;

use reqwest::Response;

use super::http::{Fault, Meter, describe};

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SseEvent {
    /// The `event` field, `message` when absent.
    pub event: String,
    /// The joined `data` lines.
    pub data: String,
}

/// Parser state between chunks.
#[derive(Debug, Default)]
pub(crate) struct SseParser {
    line: Vec<u8>,
    after_cr: bool,
    event: Option<String>,
    data: Vec<u8>,
    has_data: bool,
    ready: VecDeque<SseEvent>,
    /// The last event ID buffer (WHATWG HTML §9.2.6): set by `id` lines, kept across events.
    last_event_id: Option<String>,
    /// The reconnection time set by the last valid `retry` line, in milliseconds.
    retry_ms: Option<u64>,
}

impl SseParser {
    /// Feeds bytes; complete events become available from [`SseParser::next_event`].
    pub fn feed(&mut self, bytes: &[u8], max: usize) -> Result<(), Fault> {
        for &byte in bytes {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' => self.end_line(max)?,
                b'\r' => {
                    self.end_line(max)?;
                    self.after_cr = true;
                }
                _ => {
                    self.after_cr = false;
                    if self.line.len() >= max {
                        return Err(Fault::Bound(format!("an SSE line exceeded {max} bytes")));
                    }
                    self.line.push(byte);
                }
            }
        }
        Ok(())
    }

    /// The next complete event, if one is ready.
    pub fn next_event(&mut self) -> Option<SseEvent> {
        self.ready.pop_front()
    }

    fn end_line(&mut self, max: usize) -> Result<(), Fault> {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            self.dispatch();
            return Ok(());
        }
        if line[0] == b':' {
            return Ok(()); // a comment (keep-alive)
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(i) => {
                let value = &line[i + 1..];
                (&line[..i], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (&line[..], &b""[..]),
        };
        match field {
            b"data" => {
                if self.data.len() + value.len() + 1 > max {
                    return Err(Fault::Bound(format!("an SSE event exceeded {max} bytes")));
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            // `id` and `retry` drive resumption (MCP 2025-11-25, Transports §Resumability
            // and Redelivery). An id goes back to the server as `Last-Event-ID`, so only
            // a short header-safe one is kept; the HTML standard ignores ids with NUL.
            b"id" if value.is_empty() => self.last_event_id = None,
            b"id" if value.len() <= 256 && value.iter().all(|b| (0x20..=0x7e).contains(b)) => {
                self.last_event_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                self.retry_ms = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self) {
        let event = self.event.take().unwrap_or_else(|| "message".into());
        if !self.has_data {
            return;
        }
        self.has_data = false;
        let data = String::from_utf8_lossy(&std::mem::take(&mut self.data)).into_owned();
        self.ready.push_back(SseEvent { event, data });
    }
}

/// An SSE response body read event by event under the crawl's [`Meter`].
pub(crate) struct SseStream {
    response: Response,
    parser: SseParser,
}

impl SseStream {
    /// Wraps a response whose content type is `text/event-stream`.
    pub fn new(response: Response) -> SseStream {
        SseStream {
            response,
            parser: SseParser::default(),
        }
    }

    /// Goes on reading from `response`, a reconnection of this stream: the
    /// last event id and reconnection time carry over, a half-read line does not.
    pub fn resume(&mut self, response: Response) {
        self.response = response;
        let parser = std::mem::take(&mut self.parser);
        self.parser.last_event_id = parser.last_event_id;
        self.parser.retry_ms = parser.retry_ms;
    }

    /// The id of the last event that carried one, for `Last-Event-ID`.
    pub fn last_event_id(&self) -> Option<&str> {
        self.parser.last_event_id.as_deref()
    }

    /// The server's `retry` reconnection time, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.parser.retry_ms
    }

    /// The next event; `None` when the server closed the stream.
    pub async fn next(&mut self, meter: &mut Meter) -> Result<Option<SseEvent>, Fault> {
        loop {
            if let Some(event) = self.parser.next_event() {
                return Ok(Some(event));
            }
            let Some(chunk) = self.response.chunk().await.map_err(|e| describe(&e))? else {
                return Ok(None);
            };
            meter.take(chunk.len())?;
            self.parser.feed(&chunk, meter.max_message as usize)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(input: &[u8], max: usize) -> Result<Vec<SseEvent>, Fault> {
        let mut parser = SseParser::default();
        parser.feed(input, max)?;
        Ok(std::iter::from_fn(|| parser.next_event()).collect())
    }

    #[test]
    fn events_split_across_any_line_ending_are_parsed() {
        let events = parse(
            b"event: endpoint\r\ndata: /m?s=1\r\n\r\n: ping\n\ndata: a\rdata: b\r\r",
            100,
        );
        assert_eq!(
            events.unwrap(),
            vec![
                SseEvent {
                    event: "endpoint".into(),
                    data: "/m?s=1".into()
                },
                SseEvent {
                    event: "message".into(),
                    data: "a\nb".into()
                },
            ]
        );
    }

    #[test]
    fn an_event_fed_one_byte_at_a_time_is_the_same_event() {
        let mut parser = SseParser::default();
        for byte in b"data: {\"x\":1}\n\n" {
            parser.feed(&[*byte], 100).unwrap();
        }
        assert_eq!(parser.next_event().unwrap().data, "{\"x\":1}");
    }

    #[test]
    fn id_and_retry_are_kept_for_reconnection_and_unsafe_ids_are_not() {
        let mut parser = SseParser::default();
        parser
            .feed(b"id: e-1\nretry: 250\ndata: \n\n", 100)
            .unwrap();
        assert_eq!(parser.last_event_id.as_deref(), Some("e-1"));
        assert_eq!(parser.retry_ms, Some(250));
        parser.feed(b"id: bad\x01id\nretry: 1x\n\n", 100).unwrap();
        assert_eq!(parser.last_event_id.as_deref(), Some("e-1"));
        assert_eq!(parser.retry_ms, Some(250));
    }

    #[test]
    fn a_line_longer_than_the_bound_is_refused() {
        let long = vec![b'a'; 101];
        assert!(matches!(parse(&long, 100), Err(Fault::Bound(_))));
    }

    #[test]
    fn data_lines_adding_up_past_the_bound_are_refused() {
        let input = "data: 0123456789\n".repeat(20);
        assert!(matches!(parse(input.as_bytes(), 100), Err(Fault::Bound(_))));
    }
}
