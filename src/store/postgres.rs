//! The trees in PostgreSQL: one store shared by every Bredon process (`BREDON_DATABASE_URL`).
//!
//! One table holds every tree (`bredon_kv`: tree, key, value; keys compare bytewise like
//! sled's), so the records, their keys and their transactions are the ones the sled store has.
//! A transaction is SERIALIZABLE and runs again when PostgreSQL reports a conflict with another
//! process (SQLSTATE 40001 or 40P01), as sled runs one again on a conflict between threads: a
//! change's `seq` check therefore holds across processes, so a ply, a timer or a daily puzzle is
//! stored once whoever tries. Ids come from one sequence, so no two processes share one.
//!
//! The store's callers are synchronous (they block, as sled's do), so the connections live on a
//! small runtime of their own thread and each call waits for its answer with a plain
//! `block_on`, whether or not the caller is on a tokio thread.

use super::error::{StoreError, TxAbort};
use super::tx::{Row, Tree, Tx, TxFail, TxResult};
use futures_executor::block_on;
use std::sync::{Arc, Condvar, Mutex};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, IsolationLevel, NoTls, Statement};

/// Connections kept open; each call holds one for as long as it runs.
const POOL: usize = 8;

/// The schema, one step a version; `bredon_migrations` records the steps applied.
const MIGRATIONS: [&str; 1] = ["CREATE TABLE bredon_kv (
         tree text NOT NULL,
         key bytea NOT NULL,
         value bytea NOT NULL,
         PRIMARY KEY (tree, key)
     );
     CREATE SEQUENCE bredon_ids"];

/// Any number taken by no other program's advisory lock on the database.
const MIGRATION_LOCK: i64 = 0x6272_6564_6f6e;

pub(in crate::store) struct PgKv {
    pool: Arc<Pool>,
}

struct Pool {
    config: tokio_postgres::Config,
    runtime: tokio::runtime::Handle,
    state: Mutex<PoolState>,
    returned: Condvar,
    /// Ends the runtime's thread when the last handle goes.
    _stop: tokio::sync::oneshot::Sender<()>,
}

struct PoolState {
    idle: Vec<Conn>,
    /// Connections open, idle or out.
    open: usize,
}

/// A connection and its prepared statements.
struct Conn {
    client: Client,
    get: Statement,
    put: Statement,
    delete: Statement,
    from: Statement,
    between: Statement,
    count: Statement,
}

fn db_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Io(format!("PostgreSQL: {e}"))
}

/// Rows of (key, value) as the backend gives them.
fn key_values(rows: Vec<tokio_postgres::Row>) -> Vec<Row> {
    rows.into_iter().map(|r| (r.get(0), r.get(1))).collect()
}

fn retryable(e: &tokio_postgres::Error) -> bool {
    matches!(
        e.code(),
        Some(&SqlState::T_R_SERIALIZATION_FAILURE) | Some(&SqlState::T_R_DEADLOCK_DETECTED)
    )
}

/// The smallest key above every key that starts with `prefix` (`None`: no such key).
fn after_prefix(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

impl Pool {
    fn client(&self) -> Result<Client, StoreError> {
        let config = self.config.clone();
        block_on(self.runtime.spawn(async move {
            let (client, connection) = config.connect(NoTls).await?;
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::warn!("PostgreSQL connection closed: {e}");
                }
            });
            Ok::<_, tokio_postgres::Error>(client)
        }))
        .map_err(|e| StoreError::Io(format!("PostgreSQL connection task: {e}")))?
        .map_err(|e| StoreError::Io(format!("cannot connect to PostgreSQL: {e}")))
    }

    fn connect(&self) -> Result<Conn, StoreError> {
        let client = self.client()?;
        let prepare = |sql: &str| block_on(client.prepare(sql)).map_err(db_error);
        Ok(Conn {
            get: prepare("SELECT value FROM bredon_kv WHERE tree = $1 AND key = $2")?,
            put: prepare(
                "INSERT INTO bredon_kv (tree, key, value) VALUES ($1, $2, $3) \
                 ON CONFLICT (tree, key) DO UPDATE SET value = EXCLUDED.value",
            )?,
            delete: prepare("DELETE FROM bredon_kv WHERE tree = $1 AND key = $2")?,
            from: prepare(
                "SELECT key, value FROM bredon_kv WHERE tree = $1 AND key >= $2 ORDER BY key",
            )?,
            between: prepare(
                "SELECT key, value FROM bredon_kv WHERE tree = $1 AND key >= $2 AND key < $3 \
                 ORDER BY key",
            )?,
            count: prepare("SELECT count(*) FROM bredon_kv WHERE tree = $1")?,
            client,
        })
    }

    /// An open connection: an idle one, a new one while fewer than `POOL` are open, or the
    /// next one given back.
    fn take(self: &Arc<Pool>) -> Result<Pooled, StoreError> {
        let pooled = |conn| Pooled {
            pool: self.clone(),
            conn: Some(conn),
        };
        let mut state = self.state.lock().expect("pool lock");
        loop {
            while let Some(conn) = state.idle.pop() {
                if !conn.client.is_closed() {
                    return Ok(pooled(conn));
                }
                state.open -= 1;
            }
            if state.open < POOL {
                state.open += 1;
                drop(state);
                return self.connect().map(pooled).inspect_err(|_| {
                    self.state.lock().expect("pool lock").open -= 1;
                });
            }
            state = self.returned.wait(state).expect("pool lock");
        }
    }
}

/// A connection out of the pool, given back when dropped.
struct Pooled {
    pool: Arc<Pool>,
    conn: Option<Conn>,
}

impl Drop for Pooled {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            self.pool.state.lock().expect("pool lock").idle.push(conn);
            self.pool.returned.notify_one();
        }
    }
}

impl std::ops::Deref for Pooled {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn
            .as_ref()
            .expect("a pooled connection is kept until dropped")
    }
}

impl std::ops::DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn
            .as_mut()
            .expect("a pooled connection is kept until dropped")
    }
}

impl PgKv {
    /// Connects to `url` (a `postgres://` URL or `key=value` pairs) and brings its schema up to
    /// this build's version.
    pub(in crate::store) fn connect(url: &str) -> Result<PgKv, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Io(format!("BREDON_DATABASE_URL is not a PostgreSQL URL: {e}"))
        })?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (handle_tx, handle_rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("bredon-postgres".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime for PostgreSQL's connections");
                let _ = handle_tx.send(runtime.handle().clone());
                runtime.block_on(async move {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| StoreError::Io(format!("cannot start PostgreSQL's thread: {e}")))?;
        let runtime = handle_rx
            .recv()
            .map_err(|_| StoreError::Io("PostgreSQL's thread did not start".into()))?;
        let kv = PgKv {
            pool: Arc::new(Pool {
                config,
                runtime,
                state: Mutex::new(PoolState {
                    idle: Vec::new(),
                    open: 0,
                }),
                returned: Condvar::new(),
                _stop: stop,
            }),
        };
        kv.migrate()?;
        Ok(kv)
    }

    fn pooled(&self) -> Result<Pooled, StoreError> {
        self.pool.take()
    }

    /// Applies the schema steps this database lacks, one process at a time.
    fn migrate(&self) -> Result<(), StoreError> {
        // Not from the pool: its statements need the table this may create.
        let mut client = self.pool.client()?;
        block_on(async {
            let tx = client.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS bredon_migrations (
                     version integer PRIMARY KEY,
                     applied_at timestamptz NOT NULL DEFAULT now()
                 )",
            )
            .await?;
            let row = tx
                .query_one(
                    "SELECT coalesce(max(version), 0) FROM bredon_migrations",
                    &[],
                )
                .await?;
            let have: i32 = row.get(0);
            Ok::<_, tokio_postgres::Error>((tx, have))
        })
        .map_err(db_error)
        .and_then(|(tx, have)| {
            let known = MIGRATIONS.len() as i32;
            if have > known {
                return Err(StoreError::Io(format!(
                    "the database's schema is at version {have}, but this build knows versions \
                     up to {known}: run the Bredon version that wrote it"
                )));
            }
            block_on(async {
                for (version, sql) in MIGRATIONS.iter().enumerate().skip(have as usize) {
                    tx.batch_execute(sql).await?;
                    tx.execute(
                        "INSERT INTO bredon_migrations (version) VALUES ($1)",
                        &[&(version as i32 + 1)],
                    )
                    .await?;
                }
                tx.commit().await
            })
            .map_err(db_error)
        })
    }

    pub(super) fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let conn = self.pooled()?;
        let row =
            block_on(conn.client.query_opt(&conn.get, &[&tree.name(), &key])).map_err(db_error)?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(super) fn insert(&self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        let conn = self.pooled()?;
        block_on(
            conn.client
                .execute(&conn.put, &[&tree.name(), &key, &value]),
        )
        .map_err(db_error)?;
        Ok(())
    }

    pub(super) fn remove(&self, tree: Tree, key: &[u8]) -> Result<(), StoreError> {
        let conn = self.pooled()?;
        block_on(conn.client.execute(&conn.delete, &[&tree.name(), &key])).map_err(db_error)?;
        Ok(())
    }

    pub(super) fn scan(&self, tree: Tree, prefix: &[u8]) -> Result<Vec<Row>, StoreError> {
        let conn = self.pooled()?;
        let rows = match after_prefix(prefix) {
            Some(end) => block_on(
                conn.client
                    .query(&conn.between, &[&tree.name(), &prefix, &end]),
            ),
            None => block_on(conn.client.query(&conn.from, &[&tree.name(), &prefix])),
        }
        .map_err(db_error)?;
        Ok(key_values(rows))
    }

    pub(super) fn below(&self, tree: Tree, end: &[u8]) -> Result<Vec<Row>, StoreError> {
        let conn = self.pooled()?;
        let start: &[u8] = &[];
        let rows = block_on(
            conn.client
                .query(&conn.between, &[&tree.name(), &start, &end]),
        )
        .map_err(db_error)?;
        Ok(key_values(rows))
    }

    pub(super) fn len(&self, tree: Tree) -> Result<usize, StoreError> {
        let conn = self.pooled()?;
        let row =
            block_on(conn.client.query_one(&conn.count, &[&tree.name()])).map_err(db_error)?;
        Ok(row.get::<_, i64>(0) as usize)
    }

    pub(super) fn new_id(&self) -> Result<u64, StoreError> {
        let conn = self.pooled()?;
        let row = block_on(conn.client.query_one("SELECT nextval('bredon_ids')", &[]))
            .map_err(db_error)?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    /// Makes every id from now on larger than `id` (ids moved in from a sled folder).
    pub(super) fn ids_above(&self, id: u64) -> Result<(), StoreError> {
        let conn = self.pooled()?;
        block_on(conn.client.execute(
            "SELECT setval('bredon_ids', greatest($1, (SELECT last_value FROM bredon_ids)))",
            &[&(id as i64)],
        ))
        .map_err(db_error)?;
        Ok(())
    }

    pub(super) fn transaction<T>(
        &self,
        body: impl Fn(&dyn Tx) -> TxResult<T>,
    ) -> Result<T, TxAbort> {
        let mut conn = self.pooled().map_err(TxAbort::Store)?;
        loop {
            let Conn {
                client,
                get,
                put,
                delete,
                ..
            } = &mut *conn;
            let tx = block_on(
                client
                    .build_transaction()
                    .isolation_level(IsolationLevel::Serializable)
                    .start(),
            )
            .map_err(|e| TxAbort::Store(db_error(e)))?;
            let view = PgTx {
                tx: &tx,
                get,
                put,
                delete,
            };
            let outcome = match body(&view) {
                Ok(value) => block_on(tx.commit()).map(|()| value).map_err(tx_error),
                // Dropping the transaction rolls it back.
                Err(fail) => Err(fail),
            };
            match outcome {
                Ok(value) => return Ok(value),
                Err(TxFail::Retry) => continue,
                Err(TxFail::Abort(why)) => return Err(why),
                Err(TxFail::Storage(e)) => return Err(TxAbort::Store(e)),
            }
        }
    }

    pub(super) fn dump(&self) -> Result<Vec<(String, Vec<Row>)>, StoreError> {
        let conn = self.pooled()?;
        let rows = block_on(conn.client.query(
            "SELECT tree, key, value FROM bredon_kv ORDER BY tree, key",
            &[],
        ))
        .map_err(db_error)?;
        let mut out: Vec<(String, Vec<Row>)> = Vec::new();
        for r in rows {
            let tree: String = r.get(0);
            if out.last().map(|(t, _)| t != &tree).unwrap_or(true) {
                out.push((tree.clone(), Vec::new()));
            }
            out.last_mut()
                .expect("pushed above")
                .1
                .push((r.get(1), r.get(2)));
        }
        Ok(out)
    }
}

struct PgTx<'t, 'c> {
    tx: &'t tokio_postgres::Transaction<'c>,
    get: &'t Statement,
    put: &'t Statement,
    delete: &'t Statement,
}

fn tx_error(e: tokio_postgres::Error) -> TxFail {
    if retryable(&e) {
        TxFail::Retry
    } else {
        TxFail::Storage(db_error(e))
    }
}

impl Tx for PgTx<'_, '_> {
    fn get(&self, tree: Tree, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        let row = block_on(self.tx.query_opt(self.get, &[&tree.name(), &key])).map_err(tx_error)?;
        Ok(row.map(|r| r.get(0)))
    }

    fn insert(&self, tree: Tree, key: &[u8], value: &[u8]) -> TxResult<()> {
        block_on(self.tx.execute(self.put, &[&tree.name(), &key, &value])).map_err(tx_error)?;
        Ok(())
    }

    fn remove(&self, tree: Tree, key: &[u8]) -> TxResult<()> {
        block_on(self.tx.execute(self.delete, &[&tree.name(), &key])).map_err(tx_error)?;
        Ok(())
    }
}
