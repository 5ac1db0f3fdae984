# Renders docs/img/dashboard.png from the series DashboardPictureIT reads back from Prometheus
# (one "event-seconds value" file per query, in the working directory). Layout follows
# grafana/dashboards/hcwatch.json. Usage: gnuplot -e "out='dashboard.png'" dashboard.gp
if (!exists("out")) out = 'dashboard.png'
set terminal pngcairo size 1600,1240 background rgb '#111217' font 'DejaVu Sans,10'
set output out
set datafile missing 'NaN'

fg = '#ccccdc'; grid = '#2c3235'; panel = '#181b1f'
green = '#73bf69'; yellow = '#fade2a'; red = '#f2495c'; blue = '#5794f2'; orange = '#ff9830'; purple = '#b877d9'
set border 3 lc rgb grid
set tics textcolor rgb fg nomirror
set grid lc rgb grid lw 1
set key textcolor rgb fg top left opaque box lc rgb panel
set key samplen 2 spacing 1.1
set xlabel textcolor rgb fg
set ylabel textcolor rgb fg
set style fill solid 0.6 noborder

set multiplot
set xrange [40:280]
# panel(x, y, w, h) in screen fractions; a row label band sits above each row
W = 1.0; top = 0.955; rowh = 0.215; gap = 0.02

set label 1 'hcwatch: load-balancer health and pipeline   (incident replayed 8x: 2 min healthy, then the check timeout falls below real latency)' at screen 0.01, 0.985 textcolor rgb fg font 'DejaVu Sans,13'

# ---- row 1: fleet health
set label 2 'Fleet health (per target group)' at screen 0.01, top textcolor rgb '#9fa7b3' font 'DejaVu Sans,11'
set size 0.64, rowh; set origin 0.0, top - 0.01 - rowh
set title 'Healthy vs registered targets - prod-web-tg' textcolor rgb fg
set yrange [0:7]
plot 'registered.dat' u 1:2 w l lw 2 dt 2 lc rgb blue t 'registered', \
     'healthy.dat' u 1:2 w filledcurves y1=0 lc rgb green fs transparent solid 0.25 notitle, \
     'healthy.dat' u 1:2 w l lw 2 lc rgb green t 'healthy'
unset label 1; unset label 2
set size 0.34, rowh; set origin 0.65, top - 0.01 - rowh
set title 'Fail-open routing (1 = ALB routes to all targets)' textcolor rgb fg
set yrange [-0.1:1.2]; set ytics ('normal' 0, 'FAIL-OPEN' 1)
plot 'failopen.dat' u 1:2 w steps lw 3 lc rgb red notitle, \
     'failopen.dat' u 1:2 w filledcurves y1=0 lc rgb red fs transparent solid 0.35 notitle
set ytics autofreq

# ---- row 2: latency
y2 = top - 2*rowh - 2*gap
set label 3 'Health-check latency and headroom' at screen 0.01, y2 + rowh + 0.008 textcolor rgb '#9fa7b3' font 'DejaVu Sans,11'
set size 0.64, rowh; set origin 0.0, y2 - 0.01
set title 'Check latency vs timeout (s)' textcolor rgb fg
set yrange [0:2.6]
plot 'timeout.dat' u 1:2 w l lw 3 dt 2 lc rgb red t 'timeout', \
     'p50.dat' u 1:2 w l lw 2 lc rgb green t 'p50', \
     'p95.dat' u 1:2 w l lw 2 lc rgb yellow t 'p95', \
     'p99.dat' u 1:2 w l lw 2 lc rgb orange t 'p99'
unset label 3
set size 0.34, rowh; set origin 0.65, y2 - 0.01
set title 'Headroom: p99 / timeout' textcolor rgb fg
set yrange [0:1.2]
set arrow 1 from graph 0, first 0.5 to graph 1, first 0.5 nohead lc rgb yellow dt 3
set arrow 2 from graph 0, first 0.8 to graph 1, first 0.8 nohead lc rgb red dt 3
plot 'headroom.dat' u 1:2 w l lw 2 lc rgb purple t 'prod-web-tg'
unset arrow 1; unset arrow 2

# ---- row 3: HAProxy
y3 = y2 - rowh - 2*gap
set label 4 'HAProxy frontends' at screen 0.01, y3 + rowh + 0.008 textcolor rgb '#9fa7b3' font 'DejaVu Sans,11'
set size 0.64, rowh; set origin 0.0, y3 - 0.01
set title 'Sessions vs maxconn - lb1/hc-ping' textcolor rgb fg
set yrange [0:2300]
plot 'maxconn.dat' u 1:2 w l lw 2 dt 2 lc rgb red t 'maxconn', \
     'sessions.dat' u 1:2 w filledcurves y1=0 lc rgb blue fs transparent solid 0.25 notitle, \
     'sessions.dat' u 1:2 w l lw 2 lc rgb blue t 'sessions (feconn)'
unset label 4
set size 0.34, rowh; set origin 0.65, y3 - 0.01
set title 'Sessions / maxconn' textcolor rgb fg
set yrange [0:1.05]
set arrow 1 from graph 0, first 0.8 to graph 1, first 0.8 nohead lc rgb yellow dt 3
set arrow 2 from graph 0, first 0.95 to graph 1, first 0.95 nohead lc rgb red dt 3
plot 'ratio.dat' u 1:2 w l lw 2 lc rgb blue t 'lb1/hc-ping'
unset arrow 1; unset arrow 2

# ---- row 4: alerts and pipeline
y4 = y3 - rowh - 2*gap
set label 5 'Alerts and pipeline health' at screen 0.01, y4 + rowh + 0.008 textcolor rgb '#9fa7b3' font 'DejaVu Sans,11'
set xlabel 'event time since the first record (s)'
set size 0.25, rowh; set origin 0.0, y4 - 0.01 + 0.02
set title 'Alerts fired (all types)' textcolor rgb fg
set yrange [0:*]
set boxwidth 6
plot 'alerts.dat' u 1:2 w boxes lc rgb red t 'firing'
unset label 5
set size 0.25, rowh; set origin 0.25, y4 - 0.01 + 0.02
set title 'Parse rate (records/s)' textcolor rgb fg
plot 'parsed.dat' u 1:2 w l lw 2 lc rgb green t 'parsed', \
     'rejected.dat' u 1:2 w l lw 2 lc rgb red t 'rejected (DLQ)'
set size 0.25, rowh; set origin 0.5, y4 - 0.01 + 0.02
set title 'Consumer lag (records)' textcolor rgb fg
plot 'lag.dat' u 1:2 w l lw 2 lc rgb orange t 'stream app, all inputs'
set size 0.25, rowh; set origin 0.75, y4 - 0.01 + 0.02
set title 'Alert sink deliveries' textcolor rgb fg
plot 'delivered.dat' u 1:2 w boxes lc rgb green t 'delivered'
unset multiplot
