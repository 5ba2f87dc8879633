/* browse.c: see browse.h. */
#include <stdlib.h>

#include "browse.h"
#include "model/core/model.h"
#include "model/queries/lanes.h"

int
fz_browse(struct d9t_app *app, struct d9t_config *cfg,
    const char *const *path)
{
	struct d9p_read_stats st;
	struct d9m_model *m;
	struct d9m_lanes *ix;

	if ((m = d9m_model_new()) == NULL)
		abort();
	if (d9m_model_load(m, path, 1, NULL, NULL, NULL, &st) < 0 ||
	    st.read_ok == 0 || d9m_model_finish(m) < 0 ||
	    (ix = d9m_lanes_build(m)) == NULL) {
		d9m_model_free(&m);
		return -1;
	}
	d9t_config_init(cfg);
	cfg->sync = 1;
	if (d9t_app_init(app, cfg, path, 1, 1, 1) != 0) {
		d9m_lanes_free(&ix);
		d9m_model_free(&m);
		return -1;
	}
	if (d9t_app_set_model(app, m, ix) != 0) {
		d9t_app_free(app);
		return -1;
	}
	return 0;
}
