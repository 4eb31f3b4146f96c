/*
 * The Python host plug-in: runs a Python class as an odr-sim purge policy through the C
 * interface (odrsim_policy.h). odr-sim loads it for `--policy-plugin FILE.py:CLASS`; the
 * Python package and scripts/build-plugin build it against the interpreter they run under.
 *
 * The class has the C interface's methods, each optional but select_victims:
 *   stored(pack), accessed(pack), released(pack), removed(pack)   notifications
 *   select_victims(view) -> iterable of pack ids                   the answer
 * A pack is a named tuple (id, size, last_use, last_use_order, stored_order, request_count,
 * app, app_running, preservation, purge_count); a view has bytes, time, cache_bytes, scope,
 * app, candidate_count, size(id) (None if not a candidate) and candidates().
 *
 * One interpreter serves every run; runs on several threads take the GIL in turn. An
 * exception is the policy's error: odr-sim stops with its message and the policy's name.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "odrsim_policy.h"

static PyObject *bootstrap;  /* the module defined by BOOTSTRAP below */
static PyObject *pack_type;
static char init_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *BOOTSTRAP =
    "import collections, importlib.util, os, sys\n"
    "Pack = collections.namedtuple('Pack', 'id size last_use last_use_order stored_order request_count app app_running preservation purge_count')\n"
    "class View:\n"
    "    __slots__ = ('_handle', 'bytes', 'time', 'cache_bytes', 'scope', 'app', 'candidate_count')\n"
    "    def size(self, pack):\n"
    "        return _odrsim_host.size(self._handle, pack)\n"
    "    def candidates(self):\n"
    "        return [Pack(*t) for t in _odrsim_host.candidates(self._handle)]\n"
    "_modules = {}\n"
    "def load(path, name):\n"
    "    path = os.fsdecode(path)\n"  /* bytes as odr-sim gave them: a name need not be UTF-8 */
    "    module = _modules.get(path)\n"
    "    if module is None:\n"
    "        folder = os.path.dirname(path)\n"
    "        if folder not in sys.path: sys.path.insert(0, folder)\n"
    "        spec = importlib.util.spec_from_file_location('odrsim_policy_' + str(len(_modules)), path)\n"
    "        module = importlib.util.module_from_spec(spec)\n"
    "        spec.loader.exec_module(module)\n"
    "        _modules[path] = module\n"
    "    cls = getattr(module, name, None)\n"
    "    if cls is None: raise LookupError(f'{os.path.basename(path)} defines no {name}')\n"
    "    if not callable(getattr(cls, 'select_victims', None)): raise TypeError(f'{name} has no select_victims(view) method')\n"
    "    return cls\n"
    "def view(handle, bytes, time, cache_bytes, scope, app, count):\n"
    "    v = View()\n"
    "    v._handle, v.bytes, v.time, v.cache_bytes, v.scope, v.app, v.candidate_count = handle, bytes, time, cache_bytes, scope, app, count\n"
    "    return v\n";

static PyObject *pack_tuple(const odrsim_pack *p) {
    return PyObject_CallFunction(pack_type, "LLdKKLiidi", (long long)p->id, (long long)p->size, p->last_use,
                                 (unsigned long long)p->last_use_order, (unsigned long long)p->stored_order,
                                 (long long)p->request_count, (int)p->app, (int)p->app_running, p->preservation, (int)p->purge_count);
}

static PyObject *host_size(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long handle;
    long long pack;
    if (!PyArg_ParseTuple(args, "KL", &handle, &pack)) return NULL;
    const odrsim_view *view = (const odrsim_view *)(uintptr_t)handle;
    int64_t size = view->candidate_size(view, pack);
    if (size < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(size);
}

static PyObject *host_candidates(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long handle;
    if (!PyArg_ParseTuple(args, "K", &handle)) return NULL;
    const odrsim_view *view = (const odrsim_view *)(uintptr_t)handle;
    int64_t count = view->candidate_count;
    odrsim_pack *packs = count > 0 ? malloc((size_t)count * sizeof *packs) : NULL;
    if (count > 0 && !packs) return PyErr_NoMemory();
    int64_t n = count > 0 ? view->candidates(view, packs, count) : 0;
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (int64_t k = 0; list && k < n; k++) {
        const odrsim_pack *p = &packs[k];
        PyObject *t = Py_BuildValue("(LLdKKLiidi)", (long long)p->id, (long long)p->size, p->last_use,
                                    (unsigned long long)p->last_use_order, (unsigned long long)p->stored_order,
                                    (long long)p->request_count, (int)p->app, (int)p->app_running, p->preservation, (int)p->purge_count);
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, t);
    }
    free(packs);
    return list;
}

static PyMethodDef host_methods[] = {
    {"size", host_size, METH_VARARGS, "bytes removing the pack frees, or None if it is not a candidate"},
    {"candidates", host_candidates, METH_VARARGS, "the candidates, as tuples"},
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef host_module = {PyModuleDef_HEAD_INIT, "_odrsim_host", NULL, -1, host_methods, NULL, NULL, NULL, NULL};
static PyObject *init_host_module(void) { return PyModule_Create(&host_module); }

/* "TypeError: message" of the exception being handled (cleared), in `buffer`. */
static const char *exception_text(char *buffer, size_t size) {
    PyObject *type, *value, *trace;
    PyErr_Fetch(&type, &value, &trace);
    PyErr_NormalizeException(&type, &value, &trace);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *kind = type ? ((PyTypeObject *)type)->tp_name : "error";
    const char *message = text ? PyUnicode_AsUTF8(text) : NULL;
    if (message && *message) snprintf(buffer, size, "%s: %s", kind, message); else snprintf(buffer, size, "%s", kind);
    for (char *c = buffer; *c; c++) if (*c == '\n') *c = ' ';
    Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(trace);
    PyErr_Clear();
    return buffer;
}

static void initialize(void) {
    if (!Py_IsInitialized()) {
        PyImport_AppendInittab("_odrsim_host", init_host_module);
        PyConfig config;
        PyConfig_InitPythonConfig(&config);
        config.install_signal_handlers = 0;  /* odr-sim's signals stay odr-sim's */
        config.parse_argv = 0;
#ifdef ODRSIM_PYTHON_HOME
        if (!getenv("PYTHONHOME")) PyConfig_SetBytesString(&config, &config.home, ODRSIM_PYTHON_HOME);
#endif
        PyStatus status = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(status)) {
            snprintf(init_error, sizeof init_error, "Python did not start: %s", status.err_msg ? status.err_msg : "unknown");
            return;
        }
    } else {
        PyGILState_STATE gil = PyGILState_Ensure();
        PyObject *m = PyImport_ImportModule("_odrsim_host");
        if (!m) { PyErr_Clear(); m = init_host_module(); PyDict_SetItemString(PyImport_GetModuleDict(), "_odrsim_host", m); }
        Py_XDECREF(m);
        PyGILState_Release(gil);
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    /* The Python package passes its interpreter's path (a venv's site-packages included). */
    const char *extra = getenv("ODR_SIM_PYTHONPATH");
    if (extra && *extra) {
        PyObject *sys_path = PySys_GetObject("path");
        char *copy = strdup(extra), *save = NULL;
        Py_ssize_t at = 0;
        for (char *part = strtok_r(copy, ":", &save); part; part = strtok_r(NULL, ":", &save)) {
            PyObject *s = PyUnicode_FromString(part);
            if (s) { PyList_Insert(sys_path, at++, s); Py_DECREF(s); }
        }
        free(copy);
    }
    bootstrap = PyModule_New("odrsim_host_bootstrap");
    PyObject *globals = PyModule_GetDict(bootstrap);
    PyObject *host = PyImport_ImportModule("_odrsim_host");
    PyDict_SetItemString(globals, "_odrsim_host", host);
    PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
    PyObject *result = PyRun_String(BOOTSTRAP, Py_file_input, globals, globals);
    if (!result) exception_text(init_error, sizeof init_error);
    Py_XDECREF(result);
    Py_XDECREF(host);
    pack_type = PyDict_GetItemString(globals, "Pack");
    PyGILState_Release(gil);
    /* Let other threads take the GIL: every call below takes it in turn. */
    if (PyGILState_Check()) PyEval_SaveThread();
}

typedef struct instance {
    PyObject *object;
    PyObject *stored, *accessed, *released, *removed, *select;
    char name[128];
    char error[512];
    int failed;
} instance;

static __thread char create_error[512];

static void *create(const odrsim_create_args *args, const char **error) {
    pthread_once(&once, initialize);
    if (init_error[0]) { *error = init_error; return NULL; }
    /* The argument is FILE:CLASS (the file made absolute by odr-sim). */
    const char *colon = strrchr(args->argument, ':');
    if (!colon) { *error = "the host plug-in needs FILE.py:CLASS"; return NULL; }
    PyGILState_STATE gil = PyGILState_Ensure();
    instance *self = calloc(1, sizeof *self);
    snprintf(self->name, sizeof self->name, "%s", colon + 1);
    PyObject *cls = PyObject_CallMethod(bootstrap, "load", "y#s", args->argument, (Py_ssize_t)(colon - args->argument), colon + 1);
    PyObject *kwargs = PyDict_New();
    for (int32_t k = 0; k < args->option_count; k++) {
        PyObject *v = PyUnicode_FromString(args->options[k].value);
        PyDict_SetItemString(kwargs, args->options[k].key, v);
        Py_XDECREF(v);
    }
    PyObject *empty = PyTuple_New(0);
    self->object = cls ? PyObject_Call(cls, empty, kwargs) : NULL;
    Py_XDECREF(empty); Py_XDECREF(kwargs); Py_XDECREF(cls);
    if (!self->object) {
        *error = exception_text(create_error, sizeof create_error);
        free(self);
        PyGILState_Release(gil);
        return NULL;
    }
    const char *names[] = {"stored", "accessed", "released", "removed", "select_victims"};
    PyObject **slots[] = {&self->stored, &self->accessed, &self->released, &self->removed, &self->select};
    /* Each method is looked up on the instance, which may hide the class's: every one found
       must be callable, and select_victims must be found. */
    const char *refused = NULL;
    for (int k = 0; k < 5; k++) {
        *slots[k] = PyObject_GetAttrString(self->object, names[k]);
        if (!*slots[k]) PyErr_Clear();
        if (!refused && *slots[k] && (*slots[k] == Py_None || !PyCallable_Check(*slots[k]))) {
            snprintf(create_error, sizeof create_error, "%s.%s is not callable (%s)", self->name, names[k],
                     Py_TYPE(*slots[k])->tp_name);
            refused = create_error;
        }
    }
    if (!refused && !self->select) {
        snprintf(create_error, sizeof create_error, "%s has no select_victims(view) method", self->name);
        refused = create_error;
    }
    if (refused) {
        for (int k = 0; k < 5; k++) Py_XDECREF(*slots[k]);
        Py_XDECREF(self->object);
        free(self);
        PyGILState_Release(gil);
        *error = refused;
        return NULL;
    }
    PyGILState_Release(gil);
    return self;
}

static void destroy(void *opaque) {
    instance *self = opaque;
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_XDECREF(self->stored); Py_XDECREF(self->accessed); Py_XDECREF(self->released);
    Py_XDECREF(self->removed); Py_XDECREF(self->select); Py_XDECREF(self->object);
    PyGILState_Release(gil);
    free(self);
}

static void notify(instance *self, PyObject *method, const char *what, const odrsim_pack *pack) {
    if (!method || self->failed) return;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *p = pack_tuple(pack);
    PyObject *r = p ? PyObject_CallOneArg(method, p) : NULL;
    if (!r) {
        char text[400];
        snprintf(self->error, sizeof self->error, "%s raised %s", what, exception_text(text, sizeof text));
        self->failed = 1;
    }
    Py_XDECREF(r); Py_XDECREF(p);
    PyGILState_Release(gil);
}

static void stored(void *s, const odrsim_pack *p) { notify(s, ((instance *)s)->stored, "stored", p); }
static void accessed(void *s, const odrsim_pack *p) { notify(s, ((instance *)s)->accessed, "accessed", p); }
static void released(void *s, const odrsim_pack *p) { notify(s, ((instance *)s)->released, "released", p); }
static void removed(void *s, const odrsim_pack *p) { notify(s, ((instance *)s)->removed, "removed", p); }

static const char *notification_error(void *s) {
    instance *self = s;
    return self->failed ? self->error : NULL;
}

static int64_t select_victims(void *s, const odrsim_view *view, int64_t *victims, const char **error) {
    instance *self = s;
    if (self->failed) { *error = self->error; return -1; }
    if (!self->select) { *error = "no select_victims(view) method"; return -1; }
    PyGILState_STATE gil = PyGILState_Ensure();
    int64_t count = -1;
    PyObject *v = PyObject_CallMethod(bootstrap, "view", "KLdLiiL", (unsigned long long)(uintptr_t)view, (long long)view->bytes, view->time,
                                      (long long)view->cache_bytes, (int)view->scope, (int)view->app, (long long)view->candidate_count);
    PyObject *answer = v ? PyObject_CallOneArg(self->select, v) : NULL;
    PyObject *iterator = answer ? PyObject_GetIter(answer) : NULL;
    if (iterator) {
        count = 0;
        PyObject *item;
        while ((item = PyIter_Next(iterator))) {
            long long id = PyLong_AsLongLong(item);
            Py_DECREF(item);
            if (id == -1 && PyErr_Occurred()) { count = -1; break; }
            if (count >= view->candidate_count) {
                snprintf(self->error, sizeof self->error, "returned more ids than the %lld candidates", (long long)view->candidate_count);
                count = -2;
                break;
            }
            victims[count++] = id;
        }
        if (count >= 0 && PyErr_Occurred()) count = -1;
        Py_DECREF(iterator);
    }
    if (count == -1) {
        char text[400];
        snprintf(self->error, sizeof self->error, "raised %s", exception_text(text, sizeof text));
    }
    if (count < 0) { *error = self->error; count = -1; }
    Py_XDECREF(answer); Py_XDECREF(v);
    PyGILState_Release(gil);
    return count;
}

static const odrsim_policy_api api = {
    .version = ODRSIM_POLICY_API_VERSION,
    .name = "python",
    .summary = "a Python class (the Python host plug-in)",
    .create = create,
    .destroy = destroy,
    .stored = stored,
    .accessed = accessed,
    .released = released,
    .removed = removed,
    .select_victims = select_victims,
    .error = notification_error,
};

const odrsim_policy_api *odrsim_policy_entry(void) { return &api; }
