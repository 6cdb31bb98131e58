//! The Kubernetes manifests (deploy/k8s/) run for real: rendered by their kustomization
//! (`kubectl kustomize`), then played by `podman kube play` as the two pods their
//! StatefulSet asks for. An agent drives Mousepad in each pod over its own port with a
//! token, and each note is read inside its own pod (the oracle). One pod's desktop killed
//! mid-call fails that call only; the other pod answers on. `podman kube down` leaves
//! no pod, container or process behind (podman 4.3 keeps the volume it made of a
//! ConfigMap: the test removes it).
//!
//! What podman 4.3 cannot run is turned into what it can, here only:
//! - a StatefulSet becomes its pods (NAME-0, NAME-1), as its controller would make them;
//! - the Secret volume of the tokens becomes a ConfigMap volume: podman 4.3's
//!   `VolumeFromSecret` dereferences a nil secrets manager and panics;
//! - each container port gets a free port on loopback (podman publishes every
//!   `containerPort`, so two pods would ask for the same);
//! - the Service and the PodDisruptionBudget are left out; every manifest is checked
//!   against Kubernetes' schemas instead (kubernetes-validate).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use deskpilot_linux::headless::{procs, wait};
use serde_json::{Value, json};

#[path = "support/http.rs"]
mod http;
use http::{call, status, try_raw};

const TOKENS: [&str; 2] = ["kube-token-aaaaaaaaaaaaaaaa", "kube-token-bbbbbbbbbbbbbbbb"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn podman() -> Command {
    let mut command = Command::new("podman");
    command.env("CONTAINERS_CONF", root().join("deploy/containers.conf"));
    command
}

fn succeeds(command: &mut Command) -> Output {
    let out = command.output().expect("the program runs");
    let said = [&out.stdout, &out.stderr].map(|b| String::from_utf8_lossy(b).into_owned());
    assert!(out.status.success(), "{command:?}: {}", said.join("\n"));
    out
}

/// deploy/k8s rendered by its kustomization, as YAML.
fn kustomized() -> Vec<u8> {
    let mut kubectl = Command::new("kubectl");
    kubectl.arg("kustomize").arg(root().join("deploy/k8s"));
    succeeds(&mut kubectl).stdout
}

/// deploy/k8s rendered by its kustomization: one value per document.
fn rendered() -> Vec<Value> {
    let text = String::from_utf8(kustomized()).unwrap();
    let docs = serde_yaml_ng::Deserializer::from_str(&text);
    docs.map(|doc| serde::Deserialize::deserialize(doc).unwrap())
        .collect()
}

/// A free port on loopback now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The rendered documents as podman 4.3 plays them (this file's header says how), with
/// `tokens` the tokens file's text and the pods' names after `prefix` (the tests run at
/// once), and the pods' names with their addresses.
fn for_podman(
    docs: Vec<Value>,
    tokens: &str,
    prefix: &str,
) -> (Vec<Value>, Vec<(String, SocketAddr)>) {
    let mut played = Vec::new();
    let mut pods = Vec::new();
    for doc in docs {
        match doc["kind"].as_str() {
            Some("ConfigMap") => played.push(doc),
            Some("StatefulSet") => {
                let replicas = doc["spec"]["replicas"].as_u64().unwrap();
                for n in 0..replicas {
                    let set = doc["metadata"]["name"].as_str().unwrap();
                    let name = format!("{prefix}{set}-{n}");
                    let (pod, addr) = pod(&doc["spec"]["template"], &name, prefix);
                    played.push(pod);
                    pods.push((name, addr));
                }
            }
            _ => {}
        }
    }
    let name = format!("{prefix}deskpilot-tokens");
    played.push(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name}, "data": {"tokens": tokens}}));
    (played, pods)
}

/// The StatefulSet's pod `name` from its `template`, its port on a free loopback port, its
/// tokens' ConfigMap named after `prefix` (podman keeps a ConfigMap volume by its name).
fn pod(template: &Value, name: &str, prefix: &str) -> (Value, SocketAddr) {
    let mut spec = template["spec"].clone();
    spec["hostname"] = json!(name);
    let port = free_port();
    for container in spec["containers"].as_array_mut().unwrap() {
        for published in container["ports"].as_array_mut().unwrap() {
            published["hostPort"] = json!(port);
            published["hostIP"] = json!("127.0.0.1");
        }
    }
    for volume in spec["volumes"].as_array_mut().unwrap() {
        if let Some(secret) = volume.as_object_mut().unwrap().remove("secret") {
            let config = format!("{prefix}{}", secret["secretName"].as_str().unwrap());
            volume["configMap"] = json!({"name": config,
                "items": secret["items"], "defaultMode": secret["defaultMode"]});
        }
    }
    let metadata = json!({"name": name, "labels": template["metadata"]["labels"]});
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec});
    (pod, SocketAddr::from(([127, 0, 0, 1], port)))
}

/// The played file, taken down when dropped, with the volume podman 4.3 makes of the
/// tokens' ConfigMap (`kube down` keeps it, and the next play would find the old tokens).
struct Played {
    file: PathBuf,
    volume: String,
}

impl Drop for Played {
    fn drop(&mut self) {
        let _ = podman().args(["kube", "down"]).arg(&self.file).output();
        let _ = podman().args(["volume", "rm", "-f", &self.volume]).output();
    }
}

fn ready(addr: SocketAddr) -> bool {
    let request = format!("GET /readyz HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    let answer = try_raw(addr, &request).unwrap_or_default();
    status(&answer) == "200"
}

/// The host pid of `container`'s first process.
fn pid_of(container: &str) -> u32 {
    let out = succeeds(podman().args(["inspect", container, "--format", "{{.State.Pid}}"]));
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// `docs` played by podman from a file in `dir`, its tokens' volume named after `prefix`.
fn play(dir: &Path, docs: &[Value], prefix: &str) -> Played {
    let file = dir.join("deskpilot.yaml");
    let text: Vec<String> = docs.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n---\n")).unwrap();
    let volume = format!("{prefix}deskpilot-tokens");
    let _ = podman().args(["volume", "rm", "-f", &volume]).output();
    succeeds(podman().args(["kube", "play"]).arg(&file));
    Played { file, volume }
}

#[test]
fn the_manifests_run_two_desktops_each_driven_and_judged_in_its_pod() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = format!("{}\n", TOKENS.join("\n"));
    let (docs, pods) = for_podman(rendered(), &tokens, "");
    assert_eq!(pods.len(), 2, "the StatefulSet's replicas");
    let started = std::time::Instant::now();
    let played = play(dir.path(), &docs, "");
    let file = played.file.clone();
    for (pod, addr) in &pods {
        let up = wait::until(Duration::from_secs(120), || ready(*addr).then_some(()));
        assert!(up.is_some(), "{pod} never ready");
        // A measurement for docs/deploy.md, not a check.
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("{pod}: ready {seconds:.1} s after `podman kube play` began");
    }

    let mut pids = Vec::new();
    for (n, (pod, addr)) in pods.iter().enumerate() {
        let bearer = format!("Bearer {}", TOKENS[n]);
        let auth = [("authorization", bearer.as_str())];
        let note = format!("Written in {pod}.");
        let path = "/home/deskpilot/note.txt";
        let steps = [
            ("write", json!({"text": note})),
            ("save_as", json!({"path": path})),
        ];
        for (workflow, inputs) in steps {
            let args = json!({"pack": "mousepad", "workflow": workflow, "inputs": inputs});
            let done = call(*addr, &auth, "run_workflow", args);
            assert!(done.contains(r#""ok":true"#), "{pod} {workflow}: {done}");
        }
        let container = format!("{pod}-desktop");
        let saved = succeeds(podman().args(["exec", &container, "cat", path]));
        assert_eq!(String::from_utf8_lossy(&saved.stdout).trim_end(), note);
        pids.push(pid_of(&container));
    }
    a_pod_killed_mid_call_leaves_the_other_at_work(&pods);

    succeeds(podman().args(["kube", "down"]).arg(&file));
    drop(played);
    for (pod, _) in &pods {
        let exists = podman().args(["pod", "exists", pod]).status().unwrap();
        assert!(!exists.success(), "{pod} is left");
    }
    let alive: Vec<u32> = pids.into_iter().filter(|p| procs::is_alive(*p)).collect();
    assert!(
        alive.is_empty(),
        "the pods' servers outlived them: {alive:?}"
    );
}

/// The first pod's desktop killed while a call it was sent waits on it: that call ends
/// without an answer (never a success), and the second pod answers as before.
fn a_pod_killed_mid_call_leaves_the_other_at_work(pods: &[(String, SocketAddr)]) {
    use std::io::{Read, Write};
    let ((first, addr), second) = (&pods[0], pods[1].1);
    let bearer = format!("Bearer {}", TOKENS[0]);
    let auth = [("authorization", bearer.as_str())];
    let opened = call(*addr, &auth, "connect", json!({"app": "mousepad"}));
    let session = http::session_in(&opened);
    let never = json!({"session": session, "selector": "button[name=Never]", "timeout_ms": 30000});
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let request = http::call_request(*addr, &auth, "wait_for", never);
    stream.write_all(request.as_bytes()).unwrap();
    succeeds(podman().args(["kill", &format!("{first}-desktop")]));
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        !answer.contains(r#""ok":true"#),
        "a killed pod answered: {answer}"
    );
    let bearer = format!("Bearer {}", TOKENS[1]);
    let listed = call(
        second,
        &[("authorization", &bearer)],
        "list_apps",
        json!({}),
    );
    assert!(listed.contains("mousepad"), "the other pod: {listed}");
}

/// A tokens file with no token: each pod's server refuses to start, says why in its log,
/// and is started again by the pod's restart policy (Kubernetes' crash loop), never ready.
#[test]
fn without_a_token_the_pods_refuse_to_start_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let (docs, pods) = for_podman(rendered(), "", "tokenless-");
    let _played = play(dir.path(), &docs, "tokenless-");
    for (pod, addr) in &pods {
        let container = format!("{pod}-desktop");
        let restarts = || {
            let format = ["--format", "{{.RestartCount}}"];
            let out = succeeds(podman().args(["inspect", &container]).args(format));
            let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            said.parse::<u32>().unwrap_or(0)
        };
        let refused = wait::until(Duration::from_secs(60), || (restarts() >= 1).then_some(()));
        assert!(refused.is_some(), "{pod} did not stop");
        let logs = succeeds(podman().args(["logs", &container]));
        let said = String::from_utf8_lossy(&logs.stderr).into_owned();
        assert!(said.contains("the token file"), "{pod}: {said}");
        assert!(!ready(*addr), "{pod} is ready without a token");
    }
}

/// Every rendered manifest, those podman cannot run included (the Service, the
/// PodDisruptionBudget), passes Kubernetes' own schemas, unknown fields refused
/// (kubernetes-validate, in the tests' venv).
#[test]
fn the_manifests_pass_kubernetes_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rendered.yaml");
    std::fs::write(&file, kustomized()).unwrap();
    let python = deskpilot_testkit::sdk_python();
    let validate = python.with_file_name("kubernetes-validate");
    let out = succeeds(Command::new(validate).arg("--strict").arg(&file));
    let said =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    for kind in ["service", "poddisruptionbudget", "statefulset", "configmap"] {
        assert!(
            said.contains(&format!("passed for resource {kind}/")),
            "{said}"
        );
    }
}
