package io.hcwatch.sink.notify.pagerduty;

import io.hcwatch.sink.notify.Page;
import java.util.List;

/** Picks the routing key for a page: the first route that matches, else the default. */
public final class Router {

    private final List<Route> routes;
    private final RoutingKey defaultKey;

    public Router(List<Route> routes, RoutingKey defaultKey) {
        this.routes = List.copyOf(routes);
        this.defaultKey = defaultKey;
    }

    public static Router single(RoutingKey key) {
        return new Router(List.of(), key);
    }

    public RoutingKey keyFor(Page page) {
        for (Route route : routes) {
            if (route.matches(page)) {
                return route.key();
            }
        }
        return defaultKey;
    }

    @Override
    public String toString() {
        return "Router[routes=" + routes + ", default=" + defaultKey + "]";
    }
}
