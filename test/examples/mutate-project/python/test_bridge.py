"""The bridge against `svc-cli platform`: sending, the chat button, receiving, and one
redelivery. It checks neither the redelivery interval nor the agent's photo nor long
texts: `svc-cli mutate` names those survivors (test/e2e/mutate-examples.test.ts asserts which).

The mutant flip-chunked is killed, and not by design: the bridge reads only Content-Length
bodies, and spec 4.2 allows chunked ones. That is the bug a mutation run is for."""


def answer(platform, customer_id, text):
    return platform.control("/agent/message", {"customerId": customer_id, "text": text})


def test_a_customer_message_is_taken(platform, bridge):
    assert bridge.send("py-1", "hello") == (True, 200)


def test_the_chat_button_follows_the_agents(platform, bridge):
    assert bridge.agents_online() is True
    platform.control("/agents", {"online": False})
    try:
        assert bridge.agents_online() is False
    finally:
        platform.control("/agents", {"online": True})


def test_an_agent_answer_is_shown_once_with_the_agent_name(platform, bridge):
    assert bridge.send("py-2", "hello")[0]
    answer(platform, "py-2", "Hi, how can I help?")
    assert bridge.inbox("py-2") == [("Hi, how can I help?", "Alice Agent")]
    [request] = bridge.requests_for("py-2")
    assert isinstance(request["message"]["id"], str)


def test_our_endpoint_down_once_gets_the_message_again(platform, bridge):
    assert bridge.send("py-3", "hello")[0]
    bridge.fail_next(1)
    result = answer(platform, "py-3", "again")
    assert result["result"] == "delivered"
    assert bridge.inbox("py-3") == [("again", "Alice Agent")]
