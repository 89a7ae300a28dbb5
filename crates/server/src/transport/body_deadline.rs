//! A request body must arrive whole within a fixed time of its headers: a client
//! trickling a byte a second holds a connection for that long at most. (tower-http's
//! body timeout restarts after every frame, so a trickle never trips it.)

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::time::Sleep;

/// A body that fails once its deadline passes before its end.
pub struct DeadlineBody<B> {
    inner: B,
    deadline: Pin<Box<Sleep>>,
    within: Duration,
}

impl<B> DeadlineBody<B> {
    /// `inner`, due within `within` from now.
    pub fn new(inner: B, within: Duration) -> Self {
        Self { inner, deadline: Box::pin(tokio::time::sleep(within)), within }
    }
}

/// The error a late body ends with.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?} of its headers")]
pub struct TooSlow(Duration);

impl<B> Body for DeadlineBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(TooSlow(self.within)))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A body that yields one byte per `every`, `n` times.
    struct Trickle {
        left: usize,
        next: Pin<Box<Sleep>>,
        every: Duration,
    }

    impl Body for Trickle {
        type Data = Bytes;
        type Error = std::io::Error;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
            if self.left == 0 {
                return Poll::Ready(None);
            }
            if self.next.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            self.left -= 1;
            let every = self.every;
            self.next.as_mut().reset(tokio::time::Instant::now() + every);
            Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b"x")))))
        }
    }

    fn trickle(n: usize, every: Duration) -> Trickle {
        Trickle { left: n, next: Box::pin(tokio::time::sleep(every)), every }
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickle_fails_at_the_deadline_though_every_byte_was_prompt() {
        let slow = DeadlineBody::new(trickle(100, Duration::from_secs(1)), Duration::from_secs(10));
        let e = slow.collect().await.map(|_| ()).expect_err("too slow");
        assert!(e.to_string().contains("did not arrive within"), "{e}");
        let quick = DeadlineBody::new(trickle(5, Duration::from_secs(1)), Duration::from_secs(10));
        assert_eq!(quick.collect().await.unwrap().to_bytes().len(), 5);
    }
}
