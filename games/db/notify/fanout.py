"""The process's streams by topic, and how each waits for its wake-ups: what the listener
(``games.db.notify.Listener``) hands each notification to, on the worker's event loop."""

import asyncio
import time
from collections.abc import Iterable


class Subscription:
    """A stream's interest in one or more topics (a game stream: its game's id; a key's
    stream: its owner's channel and each of its games): ``wait`` returns when one of them
    may have news. ``woken`` holds the topics of the wake-ups not yet taken (None: every
    topic, the listener having reconnected), ``news`` the last one's news.

    Waiting costs a future and a timer, no task: a wake-up is handed to a thousand waiting
    streams in a row, so what each costs counts (``asyncio.wait_for`` made a task per wait).
    """

    __slots__ = ("_kept", "_waiter", "game", "news", "woken", "woken_at")

    def __init__(self, game: str = "") -> None:
        self.game = game  # the topic it was made for (a game stream's only one)
        self.woken_at = 0.0  # time.monotonic() of the last wake-up
        # What the last wake-up's notification said after the topic (None: nothing, so
        # read the log); the stream takes it when it has used it.
        self.news: str | None = None
        self.woken: set[str] | None = set()
        self._kept = False  # a wake-up that came while the stream was not waiting
        self._waiter: asyncio.Future[bool] | None = None

    def wake(self, news: str | None = None, topic: str | None = None) -> None:
        self.woken_at = time.monotonic()
        self.news = news
        if topic is None:
            self.woken = None
        elif self.woken is not None:
            self.woken.add(topic)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(True)
        elif waiter is None or waiter.cancelled() or not waiter.result():
            self._kept = True  # not waiting (or its wait just timed out): the next wait returns

    @classmethod
    def wake_all(
        cls, subscriptions: "Iterable[Subscription]", news: str | None, topic: str | None
    ) -> None:
        """Wakes each of ``subscriptions`` (all of this class) with the news of ``topic``. A
        class may do better by taking them together: a move reaches every stream of its game
        in one pass (``games.api.games.stream_news.Delivering``)."""
        for subscription in subscriptions:
            subscription.wake(news, topic)

    @property
    def waiting(self) -> bool:
        """True while its stream waits in ``wait`` with no wake-up handed to it yet: the
        stream has sent everything it had, and is doing nothing else."""
        waiter = self._waiter
        return waiter is not None and not waiter.done()

    def forget(self) -> None:
        """Drops the wake-ups so far: the stream is about to read everything anyway."""
        self.woken_at = time.monotonic()
        self.news = None
        self.woken = set()
        self._kept = False

    def take_woken(self) -> set[str] | None:
        """The topics woken since the last call (None: all of them), forgotten here."""
        woken, self.woken = self.woken, set()
        return woken

    async def wait(self, timeout: float) -> bool:
        """True when woken, False at the timeout. A wake-up while not waiting is kept; wake-ups
        that come together make one."""
        if self._kept:
            self._kept = False
            return True
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = loop.call_later(timeout, _time_up, waiter)
        try:
            return await waiter
        finally:
            timer.cancel()
            self._waiter = None


def _time_up(waiter: "asyncio.Future[bool]") -> None:
    if not waiter.done():
        waiter.set_result(False)


class Fanout:
    """The process's streams by topic, and the one hand-out of each piece of news to them.

    A topic is a string: a game's id, or another channel's name (a key's owner's). ``publish``
    gives the news (the same string object, decoded once by whoever reads it, as
    ``games.api.games.stream`` does) to every subscription of the topic, in one pass on the
    event loop; ``publish_all`` wakes every subscription with no news (each then reads what
    it may have missed). Whatever follows a topic on a process's event loop subscribes here
    (through ``Listener.subscribe``), a game stream with a subscription of its own, a key's
    stream with one subscription for all its topics: the listener below feeds it from
    PostgreSQL's notifications. docs/architecture.md, "Live streams", says how to use it.
    """

    def __init__(self) -> None:
        self._topics: dict[str, set[Subscription]] = {}

    def add(self, topic: str, subscription: Subscription | None = None) -> Subscription:
        """``subscription`` (a new one by default) follows ``topic`` from now on."""
        subscription = subscription or Subscription(topic)
        self._topics.setdefault(topic, set()).add(subscription)
        return subscription

    def remove(self, topic: str, subscription: Subscription) -> None:
        followers = self._topics.get(topic)
        if followers is not None:
            followers.discard(subscription)
            if not followers:
                del self._topics[topic]

    def publish(self, topic: str, news: str | None) -> None:
        followers = self._topics.get(topic)
        if not followers:
            return
        kinds: dict[type[Subscription], list[Subscription]] = {}
        for subscription in followers:
            kinds.setdefault(type(subscription), []).append(subscription)
        for kind, group in kinds.items():
            kind.wake_all(group, news, topic)

    def publish_all(self) -> None:
        woken: set[Subscription] = set()
        for followers in self._topics.values():
            woken |= followers
        for subscription in woken:
            subscription.wake()

    def __bool__(self) -> bool:
        return bool(self._topics)

    def __contains__(self, topic: object) -> bool:
        """Whether some subscription follows ``topic`` now."""
        return topic in self._topics

    @property
    def topics(self) -> set[str]:
        """The topics some subscription follows now."""
        return set(self._topics)

    def publish_to(self, topics: set[str]) -> None:
        """Wakes every subscription of these topics with no news (each then reads)."""
        for topic in topics:
            self.publish(topic, None)

    @property
    def subscriptions(self) -> int:
        """Subscriptions that follow a topic (one that follows several counts once)."""
        found: set[Subscription] = set()
        for followers in self._topics.values():
            found |= followers
        return len(found)
