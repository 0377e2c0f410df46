//! The gateway: HELLO, IDENTIFY (shards, session starts, the `max_concurrency` spacing), RESUME,
//! heartbeats, and the events a test dispatches.

use super::*;

pub(super) async fn serve_gateway(stream: TcpStream, state: Arc<State>) {
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Message>();
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41250 } });
    let _ = tx.send(Message::Text(hello.to_string()));
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            let closing = matches!(m, Message::Close(_));
            if sink.send(m).await.is_err() || closing {
                break;
            }
        }
    });
    while let Some(Ok(msg)) = source.next().await {
        if let Message::Close(frame) = &msg {
            let code = frame.as_ref().map(|f| u16::from(f.code));
            state.closed_by_bot.lock().unwrap().push(code);
        }
        let Message::Text(text) = msg else { continue };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        match v["op"].as_u64() {
            Some(1) => {
                let _ = tx.send(Message::Text(json!({ "op": 11 }).to_string()));
            }
            Some(2) => {
                let asked = v["d"]["intents"].as_u64().unwrap_or(0);
                state.intents.store(asked, Ordering::SeqCst);
                if asked & intents::MESSAGE_CONTENT != 0
                    && state.content_intent_off.load(Ordering::SeqCst)
                {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4014.into(),
                        reason: "Disallowed intent(s).".into(),
                    };
                    let _ = tx.send(Message::Close(Some(close)));
                    continue;
                }
                // `shard`: [shard_id, num_shards], [0, 1] when left out; a shard id not below
                // the count is closed with 4010 (topics/opcodes-and-status-codes, "Invalid
                // shard").
                let shard = v["d"]["shard"].as_array();
                let (shard, total) = shard
                    .and_then(|p| Some((p.first()?.as_u64()?, p.get(1)?.as_u64()?)))
                    .unwrap_or((0, 1));
                if total == 0 || shard >= total {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4010.into(),
                        reason: "Invalid shard.".into(),
                    };
                    let _ = tx.send(Message::Close(Some(close)));
                    continue;
                }
                // events/gateway ("Rate Limiting", "Max Concurrency"): one IDENTIFY per
                // `max_concurrency` bucket (1 here, so one bucket) per 5 seconds; one sooner is
                // answered with Invalid Session (opcode 9, `d: false`).
                if !state.identify_allowed(shard) {
                    state.invalid_sessions.fetch_add(1, Ordering::SeqCst);
                    let invalid = json!({ "op": 9, "d": false });
                    let _ = tx.send(Message::Text(invalid.to_string()));
                    continue;
                }
                // events/gateway ("Session Start Limit"): each IDENTIFY spends one of the day's
                // session starts; past the last, Discord resets the token (here: 4004
                // Authentication failed, topics/opcodes-and-status-codes).
                if state.session_starts_used.fetch_add(1, Ordering::SeqCst)
                    >= state.session_starts.load(Ordering::SeqCst)
                {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4004.into(),
                        reason: "Authentication failed.".into(),
                    };
                    let _ = tx.send(Message::Close(Some(close)));
                    continue;
                }
                state.identified_at.lock().unwrap().push(Instant::now());
                identified(&state, shard, total, &tx);
                let guilds: Vec<u64> = state
                    .guilds()
                    .into_iter()
                    .filter(|g| shard_of(Some(*g), total) == shard)
                    .collect();
                let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                let url = state.ws_url.lock().unwrap().clone();
                let frame = json!({ "op": 0, "t": "READY", "s": s, "d": ready(&url, shard, total, &guilds) });
                let _ = tx.send(Message::Text(frame.to_string()));
                // Then each guild READY listed as unavailable (topics/gateway-events, "Ready").
                for g in guilds {
                    let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                    let guild = guild_create_json(g, &state);
                    let frame = json!({ "op": 0, "t": "GUILD_CREATE", "s": s, "d": guild });
                    let _ = tx.send(Message::Text(frame.to_string()));
                }
            }
            Some(6) => {
                // The session id names the shard it resumes.
                let session = v["d"]["session_id"].as_str().unwrap_or("");
                let mut parts = session.rsplit('-');
                let total = parts.next().and_then(|t| t.parse().ok()).unwrap_or(1);
                let shard = parts.next().and_then(|t| t.parse().ok()).unwrap_or(0);
                identified(&state, shard, total, &tx);
                state.resumes.fetch_add(1, Ordering::SeqCst);
                let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                let _ = tx.send(Message::Text(
                    json!({ "op": 0, "t": "RESUMED", "s": s, "d": {} }).to_string(),
                ));
            }
            _ => {}
        }
    }
    writer.abort();
    state
        .gateways
        .lock()
        .unwrap()
        .retain(|c| !c.tx.same_channel(&tx));
    state.changed.notify_waiters();
}

/// `tx` is now the connection of `shard` of `total` (in place of an earlier one).
pub(super) fn identified(
    state: &State,
    shard: u64,
    total: u64,
    tx: &mpsc::UnboundedSender<Message>,
) {
    let mut gateways = state.gateways.lock().unwrap();
    gateways.retain(|c| c.shard != shard && !c.tx.same_channel(tx));
    gateways.push(ShardConnection {
        shard,
        total,
        tx: tx.clone(),
    });
    drop(gateways);
    state.changed.notify_waiters();
}
