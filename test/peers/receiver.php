<?php
// A hook receiver written the way a third party writes one: plain PHP under `php -S`
// (single-threaded), state per chat in JSON files. Not svc-cli code.
//
//   PEER_STATE=/tmp/state PEER_MODE=ok php -S 127.0.0.1:9300 receiver.php
//
// PEER_MODE: ok (the default: `{}` to everything but chat_accepted), data (every reply
// wrapped as {"data": ...}, as some frameworks answer), crash:<event> (a fatal error, HTTP
// 500, on that event).

$mode = getenv('PEER_MODE') ?: 'ok';
$dir = getenv('PEER_STATE') ?: sys_get_temp_dir() . '/php-receiver';
if (!is_dir($dir)) {
    mkdir($dir, 0700, true);
}

if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    http_response_code(405);
    exit;
}

$event = json_decode(file_get_contents('php://input'), true);
if (!is_array($event)) {
    http_response_code(400);
    echo json_encode(['error' => 'not JSON']);
    exit;
}
$name = $event['event_name'] ?? 'unknown';

if ($mode === 'crash:' . $name) {
    // the bug: a handler that throws; PHP answers 500 with its error page
    http_response_code(500);
    throw new RuntimeException("no handler state for $name");
}

function reply(array $body, string $mode): void
{
    header('Content-Type: application/json');
    $out = $mode === 'data' ? ['data' => $body] : $body;
    echo json_encode($out === [] ? new stdClass() : $out);
}

if ($name === 'offline_message') {
    $file = $dir . '/offline-' . preg_replace('/[^A-Za-z0-9_-]/', '_', $event['offline_message_id'] ?? 'x') . '.json';
    file_put_contents($file, json_encode(['message' => $event['message'] ?? '', 'visitor' => $event['visitor'] ?? []]));
    reply(['result' => 'ok'], $mode);
    exit;
}

$chat = preg_replace('/[^0-9A-Za-z_-]/', '_', (string)($event['chat_id'] ?? 'none'));
$file = "$dir/chat-$chat.json";
$state = is_file($file) ? json_decode(file_get_contents($file), true) : ['events' => []];
$state['events'][] = $name;
if ($name === 'chat_finished') {
    $state['transcript'] = array_map(fn ($m) => $m['text'] ?? null, $event['chat']['messages'] ?? []);
}
file_put_contents($file, json_encode($state));

if ($name === 'chat_accepted') {
    reply([
        'result' => 'ok',
        'crm_link' => "https://crm.example.test/php/$chat",
        'custom_data' => [['title' => 'Visitor', 'content' => (string)($event['visitor']['name'] ?? 'unknown')]],
    ], $mode);
    exit;
}
reply([], $mode);
