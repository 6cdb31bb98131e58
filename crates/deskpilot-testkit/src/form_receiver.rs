//! A loopback HTTP server that receives submitted HTML forms: the oracle of browser tasks
//! (what the page really sent, not what the browser's accessibility tree says the fields hold).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// The largest request body read (a form is small).
const MAX_BODY: usize = 1 << 20;

/// One submitted form: its path and its fields in order, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmittedForm {
    pub path: String,
    pub fields: Vec<(String, String)>,
}

impl SubmittedForm {
    /// The first value of field `name`.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Serves `127.0.0.1:<port>` on a thread until dropped. GET answers a small page; a POST
/// with an `application/x-www-form-urlencoded` body is recorded and answered with a page
/// titled "Received".
pub struct FormReceiver {
    port: u16,
    forms: Receiver<SubmittedForm>,
}

impl FormReceiver {
    pub fn start() -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let (tx, forms) = channel();
        std::thread::spawn(move || {
            // A broken connection is the browser's business; the next one is served.
            for stream in listener.incoming().flatten() {
                let _ = serve(stream, &tx);
            }
        });
        Ok(FormReceiver { port, forms })
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The next form submitted, waiting at most `timeout`.
    pub fn next_form(&self, timeout: Duration) -> Option<SubmittedForm> {
        self.forms.recv_timeout(timeout).ok()
    }
}

fn serve(stream: TcpStream, forms: &Sender<SubmittedForm>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or("/").to_owned();
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0).min(MAX_BODY);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let title = if method == "POST" {
        let fields = form_urlencoded::parse(&body).into_owned().collect();
        let _ = forms.send(SubmittedForm {
            path: path.clone(),
            fields,
        });
        "Received"
    } else {
        "Form receiver"
    };
    let page = format!("<!doctype html><title>{title}</title><h1>{title}</h1>");
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
        page.len()
    )?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posted_form_is_decoded() {
        let receiver = FormReceiver::start().unwrap();
        let body = "city=Gen%C3%A8ve+%E2%9B%B0+%F0%9F%87%A8%F0%9F%87%AD&agree=on";
        let mut stream = TcpStream::connect(("127.0.0.1", receiver.port)).unwrap();
        write!(
            stream,
            "POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.contains("Received"), "{answer}");
        let form = receiver.next_form(Duration::from_secs(5)).unwrap();
        assert_eq!(form.path, "/submit");
        assert_eq!(form.field("city"), Some("Genève ⛰ 🇨🇭"));
        assert_eq!(form.field("agree"), Some("on"));
    }
}
