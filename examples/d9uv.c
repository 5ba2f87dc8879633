/*
 * d9uv.c: a libuv program that records itself with libd9rec: a TCP echo
 * server and its load generator on one loop, on the loopback only.
 *
 *	d9uv --out DIR [--clients N] [--messages M] [--seconds S]
 *	    [--no-compress]
 *
 * N clients (default 4, at most 64) connect to the server on 127.0.0.1
 * (an ephemeral port) and send M 16-byte messages each (default 200, at
 * most 100000), one at a time: a pacer timer kicks, every millisecond,
 * the clients whose last message was answered. The server echoes each
 * message, and every 16th one it also hands a checksum to libuv's thread
 * pool. Everything stops when every client is done, or after S seconds
 * (default 20) whatever happened.
 *
 * How an event loop maps onto the runtime model, the pattern to copy:
 * - the loop thread is worker 0 (runtime "uv"); a callback run by the
 *   loop is one poll of the "task" that owns the handle: the listener
 *   (task 1), the pacer (2), each client (10 + i), each server connection
 *   (100 + accept order), each thread-pool job (1000 + n); the loop parks
 *   when it is about to block for I/O (a prepare handle) and unparks when
 *   it returns (a check handle);
 * - timers and I/O completions are wakes, recorded just before the
 *   callback: a timer is woken by the task whose callback started it (0
 *   for the pacer, started by main), bytes read by the task that wrote
 *   them (each message carries its writer's task id, as a request id
 *   would), a write completion by the task that wrote;
 * - the thread pool's threads are blocking workers
 *   (D9REC_BLOCKING_WORKER, registered on their first job): a job is a
 *   task spawned by the connection that queued it; its end wakes it, and
 *   its completion callback on the loop is its one poll.
 * So the wake chain of a server connection runs back through the client
 * whose bytes it read to the pacer whose timer kicked that client.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "d9rec.h"

#define ID_LISTENER	1
#define ID_PACER	2
#define ID_CLIENT0	10
#define ID_CONN0	100
#define ID_JOB0		1000
#define MSG		16
#define MAX_CLIENTS	64

enum { L_LISTEN, L_PACER, L_CLIENT, L_CONN, L_JOB, L_N };

static const char *const loc_names[L_N] = {
	"examples/d9uv.c:listener:1", "examples/d9uv.c:pacer:1",
	"examples/d9uv.c:client:1", "examples/d9uv.c:connection:1",
	"examples/d9uv.c:checksum_job:1",
};

struct app;

/* A stream with its task: a client or a server connection. */
struct peer {
	uv_tcp_t	 tcp;
	struct app	*app;
	uint64_t	 task;
	uint32_t	 loc;
	uint8_t		 buf[4 * MSG];	/* a partial message, then room */
	size_t		 n;
	uint64_t	 from;		/* task that wrote the last bytes read */
	/* clients */
	uv_timer_t	 kick;
	uint64_t	 kicker;	/* task that started kick */
	uv_connect_t	 conn;
	int		 sent, answered, closing;
	/* server connections */
	unsigned	 echoed;
};

struct write_req {
	uv_write_t	 req;
	struct peer	*p;
	uint8_t		 msg[MSG];
};

struct job {
	uv_work_t	 req;
	struct app	*app;
	uint64_t	 task;
	uint8_t		 msg[MSG];
	uint64_t	 sum;
};

struct app {
	uv_loop_t	*loop;
	d9rec_writer	*w;
	struct d9rec_thread *th;	/* the loop thread: worker 0 */
	uint32_t	 loc[L_N];
	uv_tcp_t	 listener;
	uv_timer_t	 pacer, deadline;
	uv_prepare_t	 before_io;
	uv_check_t	 after_io;
	struct sockaddr_in addr;
	struct peer	 clients[MAX_CLIENTS];
	int		 nclients, messages, done, failed;
	uint64_t	 next_conn, next_job;
};

/* The thread pool's threads register on their first job. */
static _Thread_local struct d9rec_thread *pool_thread;

/* ---- instrumentation: a callback is a poll, woken by waker ---- */

static void
poll_begin(struct app *a, uint64_t task, uint32_t loc, int woken,
    uint64_t waker)
{
	if (woken)
		d9rec_wake(a->th, waker, task);
	d9rec_poll_start(a->th, task, loc, 0);
}

static void
poll_end(struct app *a)
{
	d9rec_poll_end(a->th);
}

/* A message: its writer's task, then a sequence number. */
struct msg {
	uint64_t	 task, seq;
};

static struct msg
msg_at(const uint8_t *p)
{
	struct msg m;

	memcpy(&m, p, sizeof m);
	return m;
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct peer *p = h->data;

	(void)suggested;
	*buf = uv_buf_init((char *)p->buf + p->n, (unsigned)(sizeof p->buf -
	    p->n));
}

static void
on_written(uv_write_t *req, int status)
{
	struct write_req *wr = (struct write_req *)req;
	struct peer *p = wr->p;
	struct app *a = p->app;

	poll_begin(a, p->task, p->loc, 1, p->task);	/* I/O completion */
	if (status < 0)
		a->failed = 1;
	free(wr);
	poll_end(a);
}

/* Write a message of p's task: its id, then seq. */
static void
send_msg(struct peer *p, uint64_t seq)
{
	struct write_req *wr = malloc(sizeof *wr);
	uv_buf_t b;

	if (wr == NULL) {
		p->app->failed = 1;
		return;
	}
	wr->p = p;
	memcpy(wr->msg, &(struct msg){ p->task, seq }, MSG);
	b = uv_buf_init((char *)wr->msg, MSG);
	if (uv_write(&wr->req, (uv_stream_t *)&p->tcp, &b, 1, on_written) < 0) {
		p->app->failed = 1;
		free(wr);
	}
}

static void
free_peer(uv_handle_t *h)
{
	free(h->data);
}

/* A stream's task ends in the poll that closes it (the close callback
 * only frees: it is not a poll). */
static void
close_peer(struct peer *p)
{
	d9rec_terminate(p->app->th, p->task);
	uv_close((uv_handle_t *)&p->tcp, p->task >= ID_CONN0 ? free_peer :
	    NULL);
}

/* ---- the thread pool: a checksum per 16th message ---- */

static void
job_work(uv_work_t *req)
{
	struct job *j = req->data;
	uint64_t x = msg_at(j->msg).seq | 1;

	if (pool_thread == NULL)
		pool_thread = d9rec_thread_register(j->app->w, "uv-pool",
		    D9REC_BLOCKING_WORKER);
	for (int i = 0; i < 200000; i++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9u + (uint64_t)i;
	j->sum = x;
	d9rec_wake(pool_thread, 0, j->task);	/* done: from outside a task */
}

static void
job_done(uv_work_t *req, int status)
{
	struct job *j = req->data;
	struct app *a = j->app;

	poll_begin(a, j->task, a->loc[L_JOB], 0, 0);	/* woken by the pool */
	if (status < 0 || j->sum == 0)
		a->failed = 1;
	d9rec_terminate(a->th, j->task);
	poll_end(a);
	free(j);
}

static void
queue_job(struct peer *p, const uint8_t *msg)
{
	struct app *a = p->app;
	struct job *j = malloc(sizeof *j);

	if (j == NULL)
		return;
	j->app = a;
	j->task = ID_JOB0 + a->next_job++;
	j->req.data = j;
	memcpy(j->msg, msg, MSG);
	d9rec_spawn(a->th, j->task, a->loc[L_JOB]);
	if (uv_queue_work(a->loop, &j->req, job_work, job_done) < 0) {
		d9rec_terminate(a->th, j->task);
		free(j);
	}
}

/* ---- reading: whole messages; the waker wrote them ---- */

/* Takes the whole messages read so far off p->buf, calling f on each. */
static void
messages(struct peer *p, void (*f)(struct peer *, const uint8_t *))
{
	size_t off = 0;

	for (; p->n - off >= MSG; off += MSG)
		f(p, p->buf + off);
	memmove(p->buf, p->buf + off, p->n - off);
	p->n -= off;
}

static void
echo(struct peer *p, const uint8_t *msg)
{
	uint64_t seq = msg_at(msg).seq;

	send_msg(p, seq);	/* the reply names this connection's task */
	if (++p->echoed % 16 == 0)
		queue_job(p, msg);
}

static void
answered(struct peer *p, const uint8_t *msg)
{
	if (msg_at(msg).seq != (uint64_t)p->answered)
		p->app->failed = 1;
	p->answered++;
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct peer *p = s->data;
	struct app *a = p->app;

	(void)buf;
	if (nread == 0)
		return;		/* EAGAIN: nothing happened */
	if (nread >= MSG && p->n % MSG == 0)
		p->from = msg_at(p->buf + p->n).task;	/* the writer's */
	poll_begin(a, p->task, p->loc, 1, p->from);
	if (nread < 0) {	/* EOF: the peer (p->from) closed */
		if (nread != UV_EOF)
			a->failed = 1;
		close_peer(p);
	} else {
		p->n += (size_t)nread;
		messages(p, p->task >= ID_CONN0 ? echo : answered);
	}
	poll_end(a);
}

/* ---- the server ---- */

static void
on_connection(uv_stream_t *server, int status)
{
	struct app *a = server->data;
	struct peer *p;

	poll_begin(a, ID_LISTENER, a->loc[L_LISTEN], 1, 0);	/* I/O */
	if (status < 0 || (p = calloc(1, sizeof *p)) == NULL) {
		a->failed = 1;
		poll_end(a);
		return;
	}
	p->app = a;
	p->task = ID_CONN0 + a->next_conn++;
	p->loc = a->loc[L_CONN];
	p->tcp.data = p;
	uv_tcp_init(a->loop, &p->tcp);
	d9rec_spawn(a->th, p->task, p->loc);
	if (uv_accept(server, (uv_stream_t *)&p->tcp) < 0 ||
	    uv_read_start((uv_stream_t *)&p->tcp, on_alloc, on_read) < 0) {
		a->failed = 1;
		close_peer(p);
	}
	poll_end(a);
}

/* ---- the load generator ---- */

static void
on_connected(uv_connect_t *req, int status)
{
	struct peer *p = req->data;
	struct app *a = p->app;

	poll_begin(a, p->task, p->loc, 1, 0);	/* I/O, from the kernel */
	if (status < 0 || uv_read_start((uv_stream_t *)&p->tcp, on_alloc,
	    on_read) < 0) {
		a->failed = 1;
		p->closing = 1;
		a->done++;
		close_peer(p);
	}
	poll_end(a);
}

/* The client's kick timer fired: send the next message, or close. */
static void
on_kick(uv_timer_t *t)
{
	struct peer *p = t->data;
	struct app *a = p->app;

	poll_begin(a, p->task, p->loc, 1, p->kicker);
	if (p->sent < a->messages)
		send_msg(p, (uint64_t)p->sent++);
	else if (!p->closing) {
		p->closing = 1;
		a->done++;
		close_peer(p);
		uv_close((uv_handle_t *)&p->kick, NULL);
	}
	poll_end(a);
}

static void
stop_all(struct app *a)
{
	d9rec_terminate(a->th, ID_LISTENER);
	d9rec_terminate(a->th, ID_PACER);
	uv_close((uv_handle_t *)&a->listener, NULL);
	uv_close((uv_handle_t *)&a->pacer, NULL);
	uv_close((uv_handle_t *)&a->deadline, NULL);
	uv_close((uv_handle_t *)&a->before_io, NULL);
	uv_close((uv_handle_t *)&a->after_io, NULL);
}

/* Every millisecond: kick each connected client whose last message was
 * answered (a timer started by this task: the pacer wakes the client). */
static void
on_pace(uv_timer_t *t)
{
	struct app *a = t->data;

	poll_begin(a, ID_PACER, a->loc[L_PACER], 1, 0);
	for (int i = 0; i < a->nclients; i++) {
		struct peer *p = &a->clients[i];

		if (p->closing || p->answered < p->sent ||
		    uv_is_active((uv_handle_t *)&p->kick) ||
		    !uv_is_readable((uv_stream_t *)&p->tcp))
			continue;
		p->kicker = d9rec_current_task(a->th);
		uv_timer_start(&p->kick, on_kick, 0, 0);
	}
	if (a->done == a->nclients)
		stop_all(a);
	poll_end(a);
}

static void
on_deadline(uv_timer_t *t)
{
	struct app *a = t->data;

	fprintf(stderr, "d9uv: deadline reached, stopping\n");
	a->failed = 1;
	for (int i = 0; i < a->nclients; i++)
		if (!a->clients[i].closing) {
			a->clients[i].closing = 1;
			close_peer(&a->clients[i]);
			uv_close((uv_handle_t *)&a->clients[i].kick, NULL);
		}
	stop_all(a);
}

static void
before_io(uv_prepare_t *h)
{
	struct app *a = h->data;

	d9rec_park(a->th, 0);
}

static void
after_io(uv_check_t *h)
{
	struct app *a = h->data;

	d9rec_unpark(a->th, 0);
}

/* ---- setup ---- */

static int
start(struct app *a, unsigned seconds)
{
	struct sockaddr_storage ss;
	int len = sizeof ss;

	uv_ip4_addr("127.0.0.1", 0, &a->addr);
	a->listener.data = a->pacer.data = a->deadline.data = a;
	a->before_io.data = a->after_io.data = a;
	if (uv_tcp_init(a->loop, &a->listener) < 0 ||
	    uv_tcp_bind(&a->listener, (const struct sockaddr *)&a->addr, 0) <
	    0 || uv_listen((uv_stream_t *)&a->listener, 128,
	    on_connection) < 0 ||
	    uv_tcp_getsockname(&a->listener, (struct sockaddr *)&ss, &len) < 0)
		return -1;
	memcpy(&a->addr, &ss, sizeof a->addr);
	uv_prepare_init(a->loop, &a->before_io);
	uv_prepare_start(&a->before_io, before_io);
	uv_unref((uv_handle_t *)&a->before_io);
	uv_check_init(a->loop, &a->after_io);
	uv_check_start(&a->after_io, after_io);
	uv_unref((uv_handle_t *)&a->after_io);
	uv_timer_init(a->loop, &a->pacer);
	uv_timer_start(&a->pacer, on_pace, 1, 1);
	uv_timer_init(a->loop, &a->deadline);
	uv_timer_start(&a->deadline, on_deadline, (uint64_t)seconds * 1000, 0);
	uv_unref((uv_handle_t *)&a->deadline);
	for (int i = 0; i < a->nclients; i++) {
		struct peer *p = &a->clients[i];

		p->app = a;
		p->task = ID_CLIENT0 + (uint64_t)i;
		p->loc = a->loc[L_CLIENT];
		p->tcp.data = p->kick.data = p->conn.data = p;
		d9rec_spawn(a->th, p->task, p->loc);
		uv_tcp_init(a->loop, &p->tcp);
		uv_timer_init(a->loop, &p->kick);
		if (uv_tcp_connect(&p->conn, &p->tcp,
		    (const struct sockaddr *)&a->addr, on_connected) < 0)
			return -1;
	}
	return 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: d9uv --out DIR [--clients N] [--messages M] "
	    "[--seconds S] [--no-compress]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	struct d9rec_options o;
	const char *out = NULL;
	unsigned seconds = 20;
	struct app a;
	char msg[256];
	int rc;

	memset(&a, 0, sizeof a);
	a.nclients = 4;
	a.messages = 200;
	d9rec_options_init(&o);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc)
			a.nclients = atoi(argv[++i]);
		else if (strcmp(argv[i], "--messages") == 0 && i + 1 < argc)
			a.messages = atoi(argv[++i]);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
			seconds = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--no-compress") == 0)
			o.compression = D9REC_COMPRESS_NONE;
		else
			return usage();
	}
	if (out == NULL || a.nclients < 1 || a.nclients > MAX_CLIENTS ||
	    a.messages < 1 || a.messages > 100000 || seconds < 1 ||
	    seconds > 3600)
		return usage();
	o.dir = out;
	o.service = "d9uv";
	if (d9rec_options_check(&o, msg, sizeof msg) < 0) {
		fprintf(stderr, "d9uv: %s\n", msg);
		return 1;
	}
	if ((rc = d9rec_open(&a.w, &o)) < 0) {
		fprintf(stderr, "d9uv: %s: %s\n", out, strerror(-rc));
		return 1;
	}
	for (int i = 0; i < L_N; i++)
		a.loc[i] = d9rec_location(a.w, loc_names[i]);
	d9rec_runtime(a.w, "uv", 0, 1);
	a.th = d9rec_thread_register(a.w, "uv-loop", 0);
	a.loop = uv_default_loop();
	if (start(&a, seconds) < 0) {
		fprintf(stderr, "d9uv: cannot listen on 127.0.0.1\n");
		a.failed = 1;
		stop_all(&a);
	}
	d9rec_spawn(a.th, ID_LISTENER, a.loc[L_LISTEN]);
	d9rec_spawn(a.th, ID_PACER, a.loc[L_PACER]);
	uv_run(a.loop, UV_RUN_DEFAULT);
	uv_loop_close(a.loop);
	d9rec_thread_unregister(&a.th);
	rc = d9rec_close(&a.w);
	printf("d9uv: %d clients, %d messages each, %llu jobs%s\n", a.nclients,
	    a.messages, (unsigned long long)a.next_job, a.failed ?
	    ", FAILED" : "");
	return a.failed || rc < 0;
}
